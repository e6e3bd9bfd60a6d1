//! `viva-talk`, the voice client (`viva talk` runs it): built with the server's package so
//! that `cargo build` puts it beside `viva`, while `viva` itself never links the sound stack.

fn main() -> std::process::ExitCode {
    viva_talk::main()
}
