//! The `kraft` command line: run a simulated cluster and print what happened.

fn main() {
    std::process::exit(kraft_core::cli::main(std::env::args().skip(1).collect()));
}
