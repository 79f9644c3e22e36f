"""Sub-commands of `companion`: each module defines NAME, HELP, configure(parser) and run(args)."""
