//! Ready-made scenarios: every worked example of the two seed articles, and the rebalance triggers
//! they describe. Each is a data file in `presets/`: a starting group and the events that follow it;
//! beside it in `presets/opened/`, the scenario those events lead to, written by the tests, so the
//! page opens a preset without running a rebalance.

use serde::Deserialize;

use crate::edit::EditError;
use crate::events::{settle, Event};
use crate::format::Scenario;
use crate::validate;
use crate::ReadError;

/// A preset: its headline and notes, read for the menu; its source and the scenario it opens on
/// are read only when they are wanted, so the page links no reader of events (issue 9).
#[derive(Clone, Debug)]
pub struct Preset {
    /// The file's name without `.json`; stable, used in links.
    pub id: &'static str,
    /// The headline, as the menu shows it.
    pub title: String,
    /// What it shows, and where the seed articles explain it.
    pub notes: String,
    /// Its place in [`OPENED`] and [`SOURCES`].
    index: usize,
    /// The scenario it opens on, as a file: [`Preset::scenario`].
    opened: &'static str,
}

/// A preset's source file: the starting group and the events that follow it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Source {
    title: String,
    notes: String,
    scenario: Scenario,
    /// Events after the first assignment; the last one is the rebalance the page opens on.
    #[serde(default)]
    then: Vec<Event>,
}

/// What the menu shows of a preset, read from the scenario it opens on (the rest is skipped
/// unread): the replay gives that scenario its source's title and notes, and the tests check the
/// stored file is the replay to the byte.
#[derive(Deserialize)]
struct Headline {
    title: String,
    notes: String,
}

/// A preset's files: its source (`presets/ID.json`: the group and the events) and the scenario it
/// opens on (`presets/opened/ID.json`), written from the source by this module's tests. Apart, so
/// that the page, which opens presets but never replays one, carries no source (issue 9).
macro_rules! preset_files {
    ($($id:literal),* $(,)?) => {
        (
            [$(($id, include_str!(concat!("../presets/opened/", $id, ".json")))),*],
            [$(include_str!(concat!("../presets/", $id, ".json"))),*],
        )
    };
}

/// Presets in menu order, each with the scenario it opens on, and each one's source in the same
/// order; the first is what the page opens on.
const FILES: ([(&str, &str); 13], [&str; 13]) = preset_files![
    "range-imbalance",
    "roundrobin-uneven",
    "range-two-topics",
    "sticky-crash-c3",
    "sticky-crash-c1",
    "pattern-new-topic",
    "add-partitions",
    "cooperative-upgrade",
    "rack-aware",
    "static-members",
    "consumer-protocol-uniform",
    "uniform-heterogeneous",
    "consumer-rolling-restart",
];

const OPENED: [(&str, &str); 13] = FILES.0;
const SOURCES: [&str; 13] = FILES.1;

/// Every preset. The files are part of the build and tested, so none fails to parse.
pub fn all() -> Vec<Preset> {
    OPENED
        .iter()
        .enumerate()
        .filter_map(|(index, &(id, opened))| {
            let Headline { title, notes } = serde_json::from_str(opened).ok()?;
            Some(Preset { id, title, notes, index, opened })
        })
        .collect()
}

/// The preset with this id.
pub fn find(id: &str) -> Option<Preset> {
    all().into_iter().find(|p| p.id == id)
}

/// Why a preset's source does not replay: a defect of the build, which the tests catch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The source file does not read (serde's message).
    Source(String),
    /// An event of it is refused.
    Event(EditError),
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Source(why) => write!(f, "the preset's source does not read: {why}"),
            ReplayError::Event(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<EditError> for ReplayError {
    fn from(error: EditError) -> Self {
        ReplayError::Event(error)
    }
}

impl From<crate::Problem> for ReplayError {
    fn from(problem: crate::Problem) -> Self {
        ReplayError::Event(EditError::Invalid(problem))
    }
}

impl Preset {
    /// The scenario the preset opens on: [`Preset::replay`] stored as a file, so that opening a
    /// preset runs no rebalance and the page links no assignor for it (issue 9).
    pub fn scenario(&self) -> Result<Scenario, ReadError> {
        Ok(validate::checked(crate::parse_scenario(self.opened)?)?)
    }

    /// The scenario the preset opens on, from its source: its group assigned fresh, then each event
    /// applied, every event but the last rebalanced, so the page shows the last event's rebalance.
    /// The tests check that the stored file is this; `KAP_WRITE_PRESETS=1 cargo test -p scenario
    /// presets` writes it again after a preset or a strategy changed.
    pub fn replay(&self) -> Result<Scenario, ReplayError> {
        let source = SOURCES.get(self.index).copied().unwrap_or_default();
        let source: Source = serde_json::from_str(source).map_err(|e| ReplayError::Source(e.to_string()))?;
        let mut scenario = validate::checked(Scenario { title: source.title, notes: source.notes, ..source.scenario })?;
        for event in &source.then {
            scenario = event.apply(&settle(&scenario))?;
        }
        Ok(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_file_parses_and_loads() {
        assert_eq!(all().len(), OPENED.len());
        for preset in all() {
            let scenario = preset.scenario().unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            assert!(crate::validate::errors(&scenario).is_empty(), "{}", preset.id);
        }
    }

    /// The stored scenarios are their sources replayed, to the byte: they cannot drift from the
    /// events or from the strategies. With `KAP_WRITE_PRESETS` set, they are written instead.
    #[test]
    fn every_opened_file_is_its_preset_replayed() {
        let write = std::env::var_os("KAP_WRITE_PRESETS").is_some();
        for preset in all() {
            let replayed = preset.replay().unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            let text = crate::to_json(&replayed) + "\n";
            if write {
                let path = format!("{}/presets/opened/{}.json", env!("CARGO_MANIFEST_DIR"), preset.id);
                std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{path}: {e}"));
                continue;
            }
            assert_eq!(
                preset.opened, text,
                "{}: presets/opened/ is stale: KAP_WRITE_PRESETS=1 cargo test -p scenario presets",
                preset.id
            );
            assert_eq!(preset.scenario().as_ref(), Ok(&replayed), "{}", preset.id);
        }
    }
}
