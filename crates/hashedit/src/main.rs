//! The `hashedit` binary: [`hashedit::run`] on this process's arguments.

fn main() -> std::process::ExitCode {
    hashedit::run()
}
