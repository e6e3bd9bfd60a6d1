//! `viva-talk`, the voice client: a binary of its own package, so that the server (`viva`,
//! whose `viva talk` runs this binary from beside it) never links the sound stack.

fn main() -> std::process::ExitCode {
    viva_talk::main()
}
