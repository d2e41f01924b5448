//! Where the clients keep their files, and the command they start the
//! server with.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::SetupError;

/// The directories setup writes in: the project's and the user's.
#[derive(Clone, Debug)]
pub struct Places {
    /// The project directory (project scope), absolute.
    pub project: PathBuf,
    /// The user's home directory.
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME`, else `~/.config`: opencode's and (on Linux and
    /// macOS) Zed's configuration live under it.
    pub config: PathBuf,
    /// Where setup keeps its undo records: `$XDG_STATE_HOME/hashedit/setup`,
    /// else `~/.local/state/hashedit/setup`.
    pub state: PathBuf,
    /// Claude Code's directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude: PathBuf,
    /// Claude Code's user file of MCP servers: `.claude.json` in
    /// `$CLAUDE_CONFIG_DIR`, else in the home directory.
    pub claude_json: PathBuf,
    /// Codex's directory: `$CODEX_HOME`, else `~/.codex`.
    pub codex: PathBuf,
    /// Zed's settings directory: `%APPDATA%\Zed` on Windows, else
    /// `zed` under [`Places::config`].
    pub zed: PathBuf,
    /// VS Code's user directory: `~/Library/Application Support/Code/User`
    /// on macOS, `%APPDATA%\Code\User` on Windows, else `Code/User` under
    /// [`Places::config`].
    pub vscode: PathBuf,
}

impl Places {
    /// The places for `project`, from this process's environment (`HOME`,
    /// or `USERPROFILE` on Windows, else the account's home directory, and
    /// the variables named on each field).
    pub fn from_env(project: PathBuf) -> Result<Places, SetupError> {
        Places::from_vars(project, |name| std::env::var_os(name), std::env::home_dir())
    }

    /// The places for `project` given the environment `var` and the
    /// account's home directory. A relative `HOME` is refused (the files
    /// would land wherever setup runs); a relative `XDG_*` directory is
    /// ignored, as the XDG Base Directory specification says.
    pub(crate) fn from_vars(
        project: PathBuf,
        var: impl Fn(&str) -> Option<OsString>,
        account_home: Option<PathBuf>,
    ) -> Result<Places, SetupError> {
        let var = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let xdg = |name: &str| var(name).filter(|dir| dir.is_absolute());
        let home = var("HOME")
            .or_else(|| var("USERPROFILE"))
            .or(account_home)
            .filter(|home| home.is_absolute())
            .ok_or(SetupError::NoHome)?;
        let config = xdg("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
        let state = xdg("XDG_STATE_HOME")
            .unwrap_or_else(|| home.join(".local/state"))
            .join("hashedit/setup");
        let claude_dir = var("CLAUDE_CONFIG_DIR");
        let appdata = var("APPDATA");
        let (zed, vscode) = match (cfg!(windows), cfg!(target_os = "macos"), appdata) {
            (true, _, Some(appdata)) => (appdata.join("Zed"), appdata.join("Code/User")),
            (_, true, _) => (
                config.join("zed"),
                home.join("Library/Application Support/Code/User"),
            ),
            _ => (config.join("zed"), config.join("Code/User")),
        };
        Ok(Places {
            claude: claude_dir.clone().unwrap_or_else(|| home.join(".claude")),
            claude_json: claude_dir
                .unwrap_or_else(|| home.clone())
                .join(".claude.json"),
            codex: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            project,
            home,
            config,
            state,
            zed,
            vscode,
        })
    }

    /// `opencode.jsonc` in `dir` if that exists, else `opencode.json`.
    pub(crate) fn opencode_file(dir: &Path) -> PathBuf {
        let jsonc = dir.join("opencode.jsonc");
        if jsonc.exists() {
            jsonc
        } else {
            dir.join("opencode.json")
        }
    }
}

/// The command line a client runs to start hashedit's MCP server:
/// `program`, then `mcp` and the server flags setup passes on. This is the
/// one place that command line is built; a flag `hashedit mcp` gains that
/// setup should forward is added to [`ServerCommand::args`] here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerCommand {
    /// The program: `hashedit` when that name on `PATH` is this program,
    /// else an absolute path.
    pub program: String,
    /// The arguments: `mcp` and the forwarded server flags.
    pub args: Vec<String>,
}

impl ServerCommand {
    /// `program mcp`.
    pub fn new(program: impl Into<String>) -> ServerCommand {
        ServerCommand {
            program: program.into(),
            args: vec!["mcp".into()],
        }
    }

    /// The command for `--command PROGRAM`: a bare name as given (the
    /// client looks it up on its own `PATH`), a path made absolute (the
    /// client starts the server in a directory of its own). `Err` when
    /// the name is empty or the path is no file: the client could not
    /// start it.
    pub fn given(program: &str) -> Result<ServerCommand, SetupError> {
        let path = Path::new(program);
        if path.components().count() == 1 && path.is_relative() {
            return Ok(ServerCommand::new(program));
        }
        std::path::absolute(path)
            .ok()
            .filter(|p| p.is_file())
            .and_then(|p| p.to_str().map(ServerCommand::new))
            .ok_or_else(|| SetupError::NoProgram(program.to_string()))
    }

    /// The command for the `hashedit` running now: the bare name
    /// `hashedit` when `PATH` finds this same program under it (so the
    /// files a project commits work on every machine that installed
    /// hashedit), else this program's absolute path; and when this process
    /// is not a `hashedit` binary (the Python or Node package's host), the
    /// `hashedit` that `PATH` finds. `Err` when none of these exists.
    pub fn locate() -> Result<ServerCommand, SetupError> {
        let running = std::env::current_exe()
            .ok()
            .and_then(|p| p.canonicalize().ok());
        let on_path = find_on_path("hashedit");
        let named_hashedit = running
            .as_ref()
            .and_then(|p| p.file_stem())
            .is_some_and(|s| s.to_string_lossy().starts_with("hashedit"));
        match (running, on_path) {
            (Some(running), Some(found)) if found.canonicalize().ok() == Some(running.clone()) => {
                Ok(ServerCommand::new("hashedit"))
            }
            (Some(running), _) if named_hashedit => match running.to_str() {
                Some(path) => Ok(ServerCommand::new(path)),
                None => Err(SetupError::NoServerCommand),
            },
            (_, Some(_)) => Ok(ServerCommand::new("hashedit")),
            _ => Err(SetupError::NoServerCommand),
        }
    }

    /// `program` followed by `args`, as one list.
    pub(crate) fn argv(&self) -> Vec<String> {
        std::iter::once(self.program.clone())
            .chain(self.args.iter().cloned())
            .collect()
    }
}

/// The first executable file called `name` in a `PATH` directory.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let names = [name.to_string(), format!("{name}.exe")];
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|candidate| candidate.is_file())
}
