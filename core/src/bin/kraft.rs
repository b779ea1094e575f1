//! The `kraft` command line: run a simulated cluster and print what happened.

fn main() {
    // `kraft run x.lesson | head` closes stdout early: exit as a shell tool does (SIGPIPE, 141)
    // instead of reporting a panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.to_string().contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    std::process::exit(kraft_core::cli::main(std::env::args().skip(1).collect()));
}
