"""Each game's front-end parts behind typed seams (:mod:`bot.games.api`), one package per game;
:mod:`bot.games.catalog` lists the built-in ones."""
