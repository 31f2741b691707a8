//! `arena serve` (the competition server and its organizer commands) and `arena submit`.

use anyhow::{Context, Result, bail};
use arena_server::config::ServerConfig;
use arena_tournament::bots::BotSpec;
use clap::{Args, Subcommand};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

// The server relays what a bot wrote (its `{"error": …}`, its faults): terminal text.
use crate::terminal::escape;

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(subcommand)]
    command: Option<ServeCommand>,
    #[command(flatten)]
    options: ServeOptions,
}

#[derive(Debug, Args)]
struct ServeOptions {
    /// The server's configuration file (docs/server.md); flags override it.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// The SQLite database [default: arena.db].
    #[arg(long, global = true, value_name = "FILE")]
    db: Option<PathBuf>,
    /// Worker threads for games and checks [default: 2].
    #[arg(long, global = true, value_name = "N")]
    jobs: Option<usize>,
    /// Serve pages and accept uploads, but play no ladder games.
    #[arg(long)]
    no_ladder: bool,
}

impl ServeOptions {
    fn config(&self) -> Result<ServerConfig> {
        let mut config = match &self.config {
            Some(path) => ServerConfig::load(path)?,
            None => ServerConfig::default(),
        };
        if let Some(listen) = self.listen {
            config.listen = listen;
        }
        if let Some(db) = &self.db {
            config.db = db.clone();
        }
        if let Some(jobs) = self.jobs {
            config.jobs = jobs.max(1);
        }
        if self.no_ladder {
            config.ladder = false;
        }
        Ok(config)
    }
}

#[derive(Debug, Subcommand)]
enum ServeCommand {
    /// Manage accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Run tournaments over the submitted bots.
    #[command(subcommand)]
    Tournament(TournamentCommand),
    /// Print the public key the server signs its stored replays with (the key is created
    /// beside the database, DB.replay-key, if missing): give it to `arena replay verify --key`.
    ReplayKey,
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Create an account and print its token (shown once; only its hash is stored).
    Add {
        /// The user name (a-z, 0-9, '-', '_').
        name: String,
        /// An organizer: may start tournaments through the API.
        #[arg(long)]
        admin: bool,
    },
}

#[derive(Debug, Subcommand)]
enum TournamentCommand {
    /// Run a tournament file over the submitted bots and store its report (shown at
    /// /tournaments/ID).
    Run {
        /// The tournament file, in the server's form (docs/server.md): its [[bots]] name
        /// built-ins and uploaded bots, its rules are inline; it names no other file.
        file: PathBuf,
    },
}

pub fn serve(args: ServeArgs) -> Result<ExitCode> {
    let config = args.options.config()?;
    match args.command {
        None => run_server(config),
        Some(ServeCommand::ReplayKey) => {
            let store = arena_server::store::Store::open(&config.db)
                .with_context(|| format!("cannot open {}", config.db.display()))?;
            outln!("{}", store.replay_key())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(ServeCommand::User(UserCommand::Add { name, admin })) => {
            let store = arena_server::store::Store::open(&config.db)
                .with_context(|| format!("cannot open {}", config.db.display()))?;
            let (user, token) = arena_server::accounts::add_user(&store, &name, admin)?;
            errln!(
                "user `{}` added to {}{}; the token is shown only now:",
                user.name,
                config.db.display(),
                if admin { " as an organizer" } else { "" }
            );
            outln!("{token}")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(ServeCommand::Tournament(TournamentCommand::Run { file })) => {
            let text = arena_server::tournament::read_file(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let store = arena_server::store::Store::open(&config.db)
                .with_context(|| format!("cannot open {}", config.db.display()))?;
            let prepared = arena_server::tournament::prepare(&store, &config.data_dir(), &text)
                .with_context(|| file.display().to_string())?;
            errln!(
                "tournament {} `{}`: {} bots",
                prepared.id,
                prepared.tournament.name,
                prepared.tournament.bots.len()
            );
            let report = arena_server::tournament::run_prepared(
                &store,
                &prepared,
                config.jobs,
                &config.limits,
                config.cache_dir(),
                // Nothing cancels this run but Ctrl-C (the results resume).
                &std::sync::atomic::AtomicBool::new(false),
            )?
            .context("the tournament was cancelled")?;
            out!(
                "{}",
                arena_tournament::report::render(&report, arena_tournament::report::Format::Table)
            )?;
            outln!("report page: /tournaments/{}", prepared.id)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn run_server(config: ServerConfig) -> Result<ExitCode> {
    let runtime = arena_server::runtime().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let db = config.db.clone();
        let jobs = config.jobs;
        let server = arena_server::Server::bind(config).await?;
        outln!(
            "listening on {} (database {}, {jobs} workers)",
            server.url(),
            db.display()
        )?;
        // The store made or read this key when the server opened the database.
        let key = arena_tournament::signing::key_path(&db);
        let public = arena_tournament::signing::ReplayKey::load_or_create(&key)?.public();
        // On standard error: whoever reads the first line may close standard output.
        errln!(
            "stored replays are signed by {public} (the secret key is {}; publish {}.pub)",
            key.display(),
            key.display()
        );
        server.run(shutdown_signal()).await?;
        errln!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// The bot: a .wasm/.wat file, or a bot directory (a Rust crate, a Go module, a Python,
    /// JavaScript or TypeScript bot), built here and its module uploaded.
    bot: PathBuf,
    /// The server's base URL, e.g. http://127.0.0.1:8080.
    #[arg(long, value_name = "URL")]
    server: String,
    /// Your token [default: $ARENA_TOKEN].
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// The bot's name on the server [default: the file stem].
    #[arg(long)]
    name: Option<String>,
}

pub fn submit(args: SubmitArgs) -> Result<ExitCode> {
    let token = match args.token.or_else(|| std::env::var("ARENA_TOKEN").ok()) {
        Some(token) => token,
        None => bail!("no token: pass --token TOKEN or set ARENA_TOKEN"),
    };
    // A directory is built as `check`, `play` and tournaments build it; the server only
    // ever receives the module.
    let named = if args.bot.is_dir() {
        std::fs::canonicalize(&args.bot).unwrap_or_else(|_| args.bot.clone())
    } else {
        args.bot.clone()
    };
    let module = match args.bot.to_str().map(str::parse::<BotSpec>) {
        Some(Ok(BotSpec::Crate(dir))) => arena_tournament::bots::build_crate(&dir)?,
        Some(Ok(BotSpec::Go(dir))) => arena_tournament::golang::build_go(&dir)?,
        Some(Ok(BotSpec::Python(dir))) => arena_tournament::python::build_python(&dir)?,
        Some(Ok(BotSpec::JavaScript(dir))) => arena_tournament::bots::build_javascript(&dir)?,
        _ => args.bot.clone(),
    };
    let name = match args.name {
        Some(name) => name,
        None => named
            .file_stem()
            .and_then(|s| s.to_str())
            .context("cannot take a bot name from the file name; pass --name")?
            .to_owned(),
    };
    let wasm =
        std::fs::read(&module).with_context(|| format!("cannot read {}", module.display()))?;
    let url = format!("{}/api/bots?name={name}", args.server.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        .send(&wasm[..])
        .with_context(|| format!("cannot reach {}", args.server))?;
    let status = response.status();
    let body: Value = response
        .body_mut()
        .read_json()
        .with_context(|| format!("the server answered {status} without JSON"))?;
    if let Some(check) = body.get("check").filter(|c| !c.is_null()) {
        print_check(check)?;
    }
    if status.is_success() && body["unchanged"] == true {
        outln!(
            "unchanged: {} version {} is already this module (no new version{})",
            body["bot"].as_str().unwrap_or(&name),
            body["version"],
            if body["reactivated"] == true {
                "; the retired bot is back on the ladder"
            } else {
                ""
            }
        )?;
        outln!("bot page: {}", body["url"].as_str().unwrap_or(""))?;
        Ok(ExitCode::SUCCESS)
    } else if status.is_success() {
        outln!(
            "accepted: {} version {} plays {}",
            body["bot"].as_str().unwrap_or(&name),
            body["version"],
            body["modes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        )?;
        outln!("bot page: {}", body["url"].as_str().unwrap_or(""))?;
        Ok(ExitCode::SUCCESS)
    } else {
        outln!(
            "REJECTED ({status}): {}",
            escape(body["error"].as_str().unwrap_or("no reason given"))
        )?;
        Ok(ExitCode::FAILURE)
    }
}

/// The server's check report, one line per mode, as `arena check` words it.
fn print_check(check: &Value) -> Result<()> {
    for mode in check["modes"].as_array().into_iter().flatten() {
        let name = mode["mode"].as_str().unwrap_or("?");
        match mode["fault"].as_object() {
            None => outln!("start ({name}): ok, {} fuel", mode["fuel"])?,
            Some(fault) => outln!(
                "start ({name}): not played — {}",
                escape(
                    fault
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("fault")
                )
            )?,
        }
        if let Some(trial) = mode["trial"].as_object() {
            outln!(
                "  trial game vs {}: {} ({}, {} turns); faults {}",
                trial["opponent"].as_str().unwrap_or("?"),
                trial["result"].as_str().unwrap_or("?"),
                trial["reason"].as_str().unwrap_or("?"),
                trial["turns"],
                trial["faults"]
            )?;
            if let Some(fault) = trial["first_fault"].as_str() {
                outln!("  first fault: {}", escape(fault))?;
            }
        }
    }
    Ok(())
}
