//! `kap`: Kafka's consumer partition assignors from the command line, for documentation authors,
//! scripts and our own tests.
//!
//! - `kap batch` reads group snapshots as JSON lines and writes one result line per input.
//! - `kap show FILE` prints every strategy side by side for a scenario or a snapshot.
//! - `kap link FILE` prints its share link (`--embed`: the embed link and an iframe snippet).
//! - `kap explain --strategy S FILE` walks through one strategy's decisions (or a server-side assignor's).
//! - `kap import FILE` turns `kafka-consumer-groups.sh --describe` output into a scenario file.
//! - `kap config --strategy S [FILE]` prints each client's settings for S and the safe migration.
//! - `kap presets` lists the built-in scenarios; `kap preset ID` prints one as a scenario file.

mod batch;
mod config;
mod explain;
mod import;
mod input;
mod json;
mod show;
mod show_consumer;

#[cfg(test)]
mod fuzz_tests;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc rather than the system allocator: a large `batch` line makes a million small names and
/// lists and frees them again, where it takes about a fifth less time (README, Performance).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "kap", version, about = "Kafka's consumer partition assignors, exactly as Kafka computes them")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assign group snapshots read as JSON lines on stdin; one JSON line out per line in.
    Batch,
    /// Print every strategy's assignment (and rebalance) for a scenario or snapshot file.
    Show {
        /// A scenario file, a group snapshot (batch format), or `-` for stdin.
        file: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Print the share link for a scenario or snapshot file; with --embed, the embed link and the
    /// `<iframe>` snippet for documentation pages.
    Link {
        file: PathBuf,
        /// The playground's address.
        #[arg(long, default_value = "http://127.0.0.1:8080/")]
        base: String,
        /// Link to the compact read-only embed view and print an iframe snippet too.
        #[arg(long)]
        embed: bool,
    },
    /// Walk through one strategy's decisions for a scenario or snapshot file, step by step.
    Explain {
        /// range, roundrobin, sticky, cooperative-sticky; uniform or consumer-range for the consumer
        /// protocol's server-side assignors (from each member's current target).
        #[arg(long)]
        strategy: String,
        /// One JSON object per step with what it changes, then the whole assignment.
        #[arg(long)]
        json: bool,
        file: PathBuf,
    },
    /// Turn `kafka-consumer-groups.sh --describe` output (offsets, --members --verbose, --state; any
    /// Kafka version) into a scenario file; what was inferred and unread lines go to stderr.
    Import {
        /// The pasted output, or `-` for stdin.
        file: PathBuf,
        /// The group to import when the output describes several.
        #[arg(long)]
        group: Option<String>,
        /// Weigh each partition by its LAG (load by traffic instead of by count).
        #[arg(long, value_parser = ["lag"])]
        weights: Option<String>,
    },
    /// Each client's settings for a strategy (Java, Spring Boot, librdkafka, franz-go) and, for a
    /// classic one, the safe migration from the consumers' lists in FILE (default: three on [range]).
    Config {
        /// range, roundrobin, sticky, cooperative-sticky; uniform or consumer-range for the consumer protocol.
        #[arg(long)]
        strategy: String,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// A scenario or snapshot file whose consumers migrate, or `-` for stdin.
        file: Option<PathBuf>,
    },
    /// List the built-in preset scenarios.
    Presets,
    /// Print a preset as a scenario file.
    Preset { id: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        Command::Batch => {
            let input = io::BufReader::with_capacity(1 << 20, io::stdin().lock());
            let mut output = io::BufWriter::with_capacity(1 << 16, out);
            batch::run(input, &mut output).map_err(|e| format!("batch: {e}"))
        }
        Command::Show { file, json } => match input::read(&file) {
            Ok(scenario) => show::run(scenario, json, &mut out),
            Err(message) => Err(message),
        },
        Command::Link { file, base, embed } => input::read(&file).and_then(|scenario| {
            // A link too long to share is not printed: the scenario file travels instead.
            let link = scenario::link::shareable_url(&base, &scenario, embed).map_err(|e| format!("link: {e}"))?;
            let mut text = format!("{link}\n");
            if embed {
                text.push_str(&format!("{}\n", scenario::link::iframe(&base, &scenario)));
            }
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())
        }),
        Command::Explain { strategy, json, file } => strategy
            .parse::<scenario::StrategyId>()
            .map_err(|e| e.to_string())
            .and_then(|strategy| input::read(&file).and_then(|s| explain::run(&s, strategy, json, &mut out))),
        Command::Import { file, group, weights } => import::read(&file).and_then(|text| {
            let weights = if weights.is_some() {
                scenario::import::WeightSource::Lag
            } else {
                scenario::import::WeightSource::None
            };
            let options = scenario::import::Options { group, weights };
            import::run(&text, &options, &mut out, &mut io::stderr())
        }),
        Command::Config { strategy, json, file } => {
            strategy.parse().map_err(|e: scenario::config::UnknownTarget| e.to_string()).and_then(|target| {
                let scenario = file.as_deref().map(input::read).transpose()?;
                config::run(target, scenario.as_ref(), json, &mut out)
            })
        }
        Command::Presets => {
            let mut text = String::new();
            for preset in scenario::presets::all() {
                text.push_str(&format!("{:<22} {}\n", preset.id, preset.title));
            }
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())
        }
        Command::Preset { id } => match scenario::presets::find(&id) {
            Some(preset) => preset
                .scenario()
                .map_err(|e| e.to_string())
                .and_then(|s| writeln!(out, "{}", scenario::to_json(&s)).map_err(|e| e.to_string())),
            None => Err(format!("no preset {id:?}; `kap presets` lists them")),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kap: {message}");
            ExitCode::FAILURE
        }
    }
}
