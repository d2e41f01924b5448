//! The command line (FORMAT.md §8.3): the definitions in `args`, one module
//! per command (`tool` for the six tools, `mcp`, `setup`, `generate` for
//! completions and man pages), and the input and output around them.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod args;
mod generate;
mod input;
mod mcp;
mod output;
mod progress;
mod setup;
mod tool;

use args::{Cli, Command};
use output::{Writes, output_failed, print_failure, print_success, print_usage_error};
use tool::{Printed, execute, found_nothing};

#[cfg(test)]
use generate::{man_page, man_page_names};
#[cfg(test)]
use output::colorize_diff;

/// Exit status for a tool error (the tool ran and refused).
const EXIT_TOOL_ERROR: u8 = 1;
/// Exit status for a usage error (bad flags, unreadable input).
const EXIT_USAGE: u8 = 2;
/// Exit status of a grep or glob that matched nothing (as grep and rg).
const EXIT_NO_MATCH: u8 = 1;

/// Runs the command line of this process ([`std::env::args_os`]) and
/// returns its exit status.
pub fn run() -> ExitCode {
    ExitCode::from(run_from(std::env::args_os()))
}

/// Runs one `hashedit` command line, `args[0]` being the program name, and
/// returns the exit status: 0 success, 1 tool error or no match, 2 usage
/// error (`--help` and `--version` print and return 0). Reads stdin and
/// writes stdout and stderr of this process, and flushes stdout before
/// returning, so a host that embeds it (the Python and Node packages'
/// `hashedit` command) loses no output when it exits. It exits the process
/// itself only on SIGINT, SIGTERM or SIGHUP, after removing unfinished temp
/// files, as the binary does.
pub fn run_from<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let json_output = asks_for_json(&args);
    let status = match Cli::try_parse_from(args) {
        Ok(cli) => run_parsed(cli),
        Err(error) if error.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            print_usage_error(NOT_UTF8_ARGUMENT, json_output);
            EXIT_USAGE
        }
        Err(error) if json_output && error.exit_code() == i32::from(EXIT_USAGE) => {
            let message = error.render().to_string();
            let message = message.trim_end();
            let message = message.strip_prefix("error: ").unwrap_or(message);
            print_usage_error(message, json_output);
            EXIT_USAGE
        }
        Err(error) => {
            let _ = error.print();
            u8::try_from(error.exit_code()).unwrap_or(EXIT_USAGE)
        }
    };
    let _ = std::io::stdout().flush();
    status
}

/// Whether a command line clap could not parse still asked for `--json`
/// (before any `--`), so that its usage error is a JSON object too.
fn asks_for_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|arg| *arg != "--")
        .any(|arg| arg == "--json")
}

/// The usage error for an argument that is not UTF-8 where text is needed
/// (clap's own message does not say which arguments may hold such bytes).
const NOT_UTF8_ARGUMENT: &str = "an argument is not UTF-8 text. A path argument (of read, grep, glob, ls \
     or write) may hold any bytes, raw or in the quoted spelling ls prints (\"caf\\xe9.txt\"); a pattern, a \
     tag or another value must be UTF-8 text, as hashedit reads and searches UTF-8 files only";

/// Runs a parsed command line; returns the exit status.
fn run_parsed(cli: Cli) -> u8 {
    clean_up_on_signals();
    if let Some(code) = generate::run_generator(&cli.command, cli.json) {
        return code;
    }
    if let Command::Setup(args) = &cli.command {
        return setup::run(args, &cli.server_flags(), cli.root.as_deref(), cli.json);
    }
    if let Command::Mcp {
        read_only,
        structured_content,
    } = cli.command
    {
        return mcp::run(&cli, read_only, structured_content);
    }
    let json_output = cli.json;
    let writes = Writes::of(&cli.command);
    match execute(cli) {
        Ok(Ok((outcome, kind))) => {
            if let Err(e) = print_success(&outcome, json_output, kind) {
                return output_failed(&e, writes);
            }
            if kind == Printed::Search && found_nothing(&outcome) {
                EXIT_NO_MATCH
            } else {
                0
            }
        }
        Ok(Err(error)) => {
            print_failure(&error, json_output);
            EXIT_TOOL_ERROR
        }
        Err(usage) => {
            print_usage_error(&usage, json_output);
            EXIT_USAGE
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove the temp files of writes in
/// progress, then exit as the signal would (128 + its number). The
/// default action would leave a large write's hidden
/// `.hashedit-<16 hex>.tmp` behind (FORMAT.md §6.4). A handler that cannot
/// be installed leaves the default action in place.
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            hashedit_tools::remove_unfinished_temp_files();
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(test)]
mod tests;
