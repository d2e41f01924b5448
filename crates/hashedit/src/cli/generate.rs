//! `completions` and `man`: text generated from the clap definitions.

use std::io::Write;

use super::EXIT_USAGE;
use super::args::{Cli, Command};
use super::output::{Writes, output_failed, print_usage_error};

/// `completions` and `man`: text generated from the clap definitions,
/// printed on stdout; `None` for every other command.
pub(super) fn run_generator(command: &Command, json_output: bool) -> Option<u8> {
    let mut definitions = <Cli as clap::CommandFactory>::command();
    let mut out = std::io::stdout().lock();
    let written = match command {
        Command::Completions { shell } => {
            // Generated into memory first: clap_complete panics when its
            // writer fails (`completions zsh | head -1` closes the pipe).
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut definitions, "hashedit", &mut script);
            out.write_all(&script)
        }
        Command::Man { command } => match man_page(command.as_deref()) {
            Ok(page) => clap_mangen::Man::new(page).render(&mut out),
            Err(message) => {
                print_usage_error(&message, json_output);
                return Some(EXIT_USAGE);
            }
        },
        _ => return None,
    };
    Some(match written.and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) => output_failed(&e, Writes::Nothing),
    })
}

/// The definitions manual pages are generated from: the command line
/// without clap's `help` subcommand, which has no page of its own (`-h`
/// and `--help` stay), so the SUBCOMMANDS section of hashedit(1) names
/// exactly the pages `man` prints.
fn man_definitions() -> clap::Command {
    let mut definitions = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    definitions.build();
    definitions
}

/// The COMMAND names `hashedit man COMMAND` has a page for, in the order
/// hashedit(1) lists them.
pub(super) fn man_page_names() -> Vec<String> {
    man_definitions()
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect()
}

/// The manual page to render: hashedit(1), or hashedit-COMMAND(1) for
/// `name`. `Err` is the usage error for a name with no page, listing those
/// that have one.
pub(super) fn man_page(name: Option<&str>) -> Result<clap::Command, String> {
    let definitions = man_definitions();
    let Some(name) = name else {
        return Ok(definitions);
    };
    match definitions.find_subcommand(name) {
        Some(sub) => Ok(sub
            .clone()
            .name(format!("hashedit-{name}"))
            .version(env!("CARGO_PKG_VERSION"))),
        None => Err(format!(
            "man: no page for '{name}'; the pages are hashedit (no argument) and {}",
            man_page_names().join(", ")
        )),
    }
}
