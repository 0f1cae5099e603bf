/// A request for help (`-h`, `--help`), which prints the help text and exits 0.
struct HelpRequest: Error {}
