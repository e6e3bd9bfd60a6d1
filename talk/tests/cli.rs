//! The `viva-talk` binary on its own: it starts without the server package and answers
//! `--help` (the end-to-end tests, against a real server, are the root package's `talk_cli`;
//! this test also has `cargo test --workspace` build the binary they run beside `viva`).

use std::process::Command;

#[test]
fn the_client_binary_lists_its_flags() {
    let output = Command::new(env!("CARGO_BIN_EXE_viva-talk"))
        .arg("--help")
        .output()
        .expect("run viva-talk --help");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    for flag in ["--server", "--wav", "--push-to-talk", "--list-devices"] {
        assert!(stdout.contains(flag), "{flag} missing from:\n{stdout}");
    }
}
