"""One module per ``conductor`` subcommand. Each defines ``NAME``, ``HELP`` (marked ``N_``: worded
when the parser is built), ``add_arguments(parser)`` (help texts through ``_``) and
``run(args) -> int``; :mod:`bot.cli` lists them in :data:`COMMANDS`, gives each ``--lang``
and runs it in the language the command line asks for."""
