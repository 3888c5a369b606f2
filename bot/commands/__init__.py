"""One module per ``conductor`` subcommand. Each defines ``NAME``, ``HELP``, ``add_arguments(parser)``
and ``run(args) -> int``; :mod:`bot.cli` lists them in :data:`COMMAND_MODULES`."""
