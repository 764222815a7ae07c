//! Computing off the main thread: what crosses to the compute worker and back, the queue that keeps
//! at most one request waiting, and the worker's own side, which keeps the settled previous
//! assignments the page refers to by version.
//!
//! Every scenario the page shows has a [`Version`]. An edit starts from the scenario on screen
//! *settled* (each strategy's result becomes what its members own), and a settled assignment is as
//! large as the group: a million partitions under four strategies. So the page never builds it:
//! the worker does, keeps it under the version it settled, and the page's next scenario says
//! [`Prior::Settled`] of that version instead of holding the lists. Only a group of at most
//! [`INLINE_ENTRIES`] entries comes back whole, so that its links, saves and exports carry its
//! previous assignment as they always have.
//!
//! Everything here is plain data and plain functions, tested natively; `bin/worker.rs` and the
//! page's `worker.rs` only move messages.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use assignor::Strategy;
use scenario::compact::{Layout, MAX_ENTRIES};
use scenario::digest::{member_detail, shows_chips, MemberDetail, MemberRequest};
use scenario::format::Owned;
use scenario::import::{self, Imported, Options, Unread, WeightSource};
use scenario::report::{Report, StrategyReport, Walkthrough};
use scenario::{Previous, Scenario, StrategyId};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::computed::Computed;
use crate::saved::{self, Opening, Plan, Session, Stored, Unsaved};

/// A scenario's number: each scenario the page shows gets the next one.
pub type Version = u64;

/// The version of the page's warm-up's first round (`state::State::warm_up`); round `r` is
/// `WARM_UP - r`. No scenario has these, so their answers are never painted.
pub const WARM_UP: Version = Version::MAX;

/// How many rounds of the warm-up the page asks for, each once the last one's answer is in.
pub const WARM_UP_ROUNDS: Version = 4;

/// The warm-up round that `version` is, if it is one.
pub fn warm_up_round(version: Version) -> Option<Version> {
    Some(WARM_UP - version).filter(|round| *round < WARM_UP_ROUNDS)
}

/// Above this many assigned entries (partitions × strategies), a previous assignment stays in the
/// worker: crossing the worker boundary and being held by every undo step costs in proportion.
/// 20,000 entries is 5,000 partitions under four strategies, the size above which rows summarise.
/// What crosses, crosses as pairs (`scenario::packed`).
pub const INLINE_ENTRIES: usize = scenario::packed::PAIRS_UP_TO;

// A group whose panels show chips (and offer the walkthrough, which replays the scenario the page
// holds) is always held whole.
const _: () = assert!(scenario::digest::CHIP_LIMIT * 4 <= INLINE_ENTRIES);

/// The settled assignments the worker keeps for the page's undo and redo, in entries: about 32
/// bytes each in the worker (a topic name and a number), so at most about 400 MB. Three versions
/// of Kafka's large test (1,000,000 partitions under four strategies), forty of 100,000 partitions.
pub const SETTLED_BUDGET: usize = 12_000_000;

/// Where a scenario's previous assignment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prior {
    /// In the scenario itself (`previous`; none for a fresh group).
    Inline,
    /// What the worker settled this version into: the scenario's own `previous` is left empty.
    Settled(Version),
}

/// One scenario to compute.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub version: Version,
    pub prior: Prior,
    #[serde(with = "scenario::packed")]
    pub scenario: Rc<Scenario>,
}

/// The page to the worker.
#[derive(Debug, Serialize, Deserialize)]
pub enum Request {
    /// Compute the last job. The jobs before it are the versions it builds on whose answers the
    /// page has not had (edits came faster), oldest first: they are settled, never shown, and
    /// skipped when the worker has settled them already. Settled assignments of versions not in
    /// `keep` (nor the jobs' priors) are dropped.
    ///
    /// `history`: the other workers' shares of what a version settled into, for a job every worker
    /// computes whole from it ([`Split`]).
    Compute { jobs: Vec<Job>, keep: Vec<Version>, history: Option<(Version, Vec<PartText>)> },
    /// Settle `jobs` as [`Request::Compute`] does, the last one too, and answer none of them: the
    /// reply is [`Engine::settle`]'s (the version wanted comes later, once every worker has
    /// settled this one; see [`Queue`]).
    Settle { jobs: Vec<Job>, keep: Vec<Version>, history: Option<(Version, Vec<PartText>)> },
    /// One member's partitions in a panel of `version`. `again` is that version's job: when it is
    /// not the version last computed (an undo brought it back), its report is computed anew.
    Member { version: Version, request: MemberRequest, again: Option<Job> },
    /// Write `scenario` with its previous assignment where `prior` says ([`Engine::write`]): the
    /// link, saved copy or export of any group (`travel`), so that the page links no writer of
    /// links or files (issue 9). `ticket` comes back with the texts. `parts`: what the other
    /// workers settled a [`Prior::Settled`] version into ([`Request::Part`]).
    Write {
        ticket: u64,
        prior: Prior,
        #[serde(with = "scenario::packed")]
        scenario: Rc<Scenario>,
        parts: Vec<PartText>,
    },
    /// What this worker settled `prior` into, for the worker that writes it ([`Request::Write`]).
    Part { ticket: u64, prior: Version },
    /// The generation `version` settled into, over every worker's share ([`Answer::generation`]):
    /// the next rebalance from it starts there.
    Generation { version: Version, generation: i32 },
    /// One step of a strategy's walkthrough of the scenario on screen (the scenario of
    /// `request.version`, which the page holds whole wherever it offers a walkthrough).
    Walk {
        request: WalkRequest,
        #[serde(with = "scenario::packed")]
        scenario: Rc<Scenario>,
    },
    /// Read a paste in the Import dialog; `ticket` comes back with the reading.
    Import { ticket: u64, request: ImportRequest },
    /// Open a tab on its link, the saved work or the first preset ([`OpenRequest::open`]): the
    /// page links no reader of links or scenario files (issue 9), so its first scenario comes from
    /// here. `ticket` comes back with the opening.
    Open { ticket: u64, request: OpenRequest },
    /// Read a scenario's text ([`Text::read`]): a link pasted into an open tab, a kept scenario
    /// switched back to.
    Read { ticket: u64, text: Text },
    /// Plan a save over what storage holds ([`PlanRequest::plan`]), which reads another tab's work.
    Plan { ticket: u64, request: Box<PlanRequest> },
}

/// The worker to the page.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    /// The worker is listening: a message sent before would be lost, so the page holds every
    /// request until each of its workers has said this (`browser.rs`, `Connection::early`).
    Ready,
    /// A version computed.
    Answer(Box<Answer>),
    /// A member's partitions (`None`: not in that panel). Not `current` when `version` is no longer
    /// the last computed: the page asks again for the new one.
    Member { version: Version, request: MemberRequest, detail: Option<MemberDetail>, current: bool },
    /// A scenario written for [`Request::Write`]'s `ticket`; `None` when its `prior` is a settled
    /// assignment the worker no longer keeps.
    Written { ticket: u64, texts: Option<crate::travel::Texts> },
    /// This worker's share of a settled assignment, for [`Request::Part`]'s `ticket`; `None` when
    /// it no longer keeps it.
    Part { ticket: u64, part: Option<PartText> },
    /// A step of a walkthrough, or why there is none.
    Walk { request: WalkRequest, frame: Result<WalkFrame, String> },
    /// A paste read for [`Request::Import`]'s `ticket`.
    Imported { ticket: u64, reading: Box<Reading> },
    /// A tab's opening, for [`Request::Open`]'s `ticket`.
    Opened { ticket: u64, opened: Box<Opened> },
    /// A scenario's text read, for [`Request::Read`]'s `ticket`.
    Read { ticket: u64, scenario: ReadScenario },
    /// A save planned, for [`Request::Plan`]'s `ticket`.
    Planned { ticket: u64, plan: Result<Box<Plan>, Unsaved> },
    /// A message the worker could not read (a page and a worker of different builds).
    Unreadable(String),
}

/// A version computed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub version: Version,
    pub computed: Computed,
    /// The scenario's previous assignment, when it was held by the worker and is small enough to
    /// cross: the page then holds the scenario whole again.
    #[serde(with = "scenario::packed::previous")]
    pub previous: Option<Previous>,
    /// The scenario settled, when it is small enough to cross: the next edit starts from it.
    #[serde(with = "scenario::packed::previous")]
    pub settled: Option<Previous>,
    /// The version the scenario built on was no longer kept: it was computed as a fresh group.
    pub prior_lost: bool,
    /// The generation the scenario settled into: the last round's, over the strategies this
    /// worker computed (the group's is the highest over every worker's share).
    #[serde(default)]
    pub generation: i32,
    /// Milliseconds the worker spent, for the performance script.
    pub compute_ms: f64,
}

/// One step of a walkthrough the page shows. The page holds a group small enough to walk whole
/// (a walkthrough is offered where the panels show chips, see [`INLINE_ENTRIES`]), so the scenario
/// crosses with the request; the worker records the walk once per version and strategy, and each
/// step crosses alone, its size bounded by the group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkRequest {
    /// The version on screen: with `strategy`, which walk the worker keeps recorded.
    pub version: Version,
    /// A classic strategy or a server-side assignor (it crosses as its panel's name).
    pub strategy: StrategyId,
    /// The step wanted, from 0; past the last, the last.
    pub step: usize,
}

/// A walkthrough's step as the page shows it: the sentence, the orders in force, each member's
/// list so far, what to highlight. Plain text, so the page needs none of the strategies' code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WalkFrame {
    /// This step's index, from 0 (the request's, or the last).
    pub step: usize,
    /// How many steps the walk has (0: nothing to assign).
    pub count: usize,
    /// The decision, in Kafka's vocabulary.
    pub sentence: String,
    /// The orders in force after this step: each one's name and its items, joined.
    pub orders: Vec<(String, String)>,
    /// Each member's partitions once this step is taken, in member name order.
    pub lists: Vec<(String, Vec<String>)>,
    /// The partition this step is about.
    pub focus_partition: Option<String>,
    /// The members this step is about.
    pub focus_members: Vec<String>,
}

/// A paste in the Import dialog, with its options. Importing infers subscriptions by counting what
/// the group's strategy would move (`scenario::import`), so the worker reads it, not the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRequest {
    /// What `kafka-consumer-groups.sh` printed.
    pub text: String,
    /// The group chosen, when the paste describes several.
    pub group: Option<String>,
    /// Weigh partitions by their LAG.
    pub lag: bool,
}

/// What a paste comes to with the options chosen, as the Import dialog shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// The groups the paste describes.
    pub groups: Vec<String>,
    /// The lines that could not be read.
    pub unread: Vec<Unread>,
    /// The group chosen as a scenario, or why there is none (`ImportError`, worded).
    pub outcome: Result<Imported, String>,
}

impl ImportRequest {
    /// Reads the paste: what `kap import` reads, with the dialog's options.
    pub fn read(&self) -> Reading {
        let paste = import::read(&self.text);
        let weights = if self.lag { WeightSource::Lag } else { WeightSource::None };
        let outcome = paste.scenario(&Options { group: self.group.clone(), weights });
        Reading {
            groups: paste.groups().iter().map(|g| g.name.clone()).collect(),
            unread: paste.unread().to_vec(),
            outcome: outcome.map_err(|e| e.to_string()),
        }
    }
}

/// Opens a file handed to Import JSON as `kap show` does (`scenario::read_file`), in the file
/// reader (`bin/reader.rs`): a consumer-protocol line is refused where `kap batch` refuses it,
/// which runs the coordinator's assignors, so neither the page nor the compute worker links the
/// rulebook for lines (issue 9: a smaller page; the reader loads only when a file is imported).
pub fn open_file(text: &str) -> ReadScenario {
    ReadScenario::of(scenario::read_file(text))
}

/// A scenario read from its text, or why it does not open: the file reader's reply
/// ([`open_file`]) and [`Reply::Read`]'s, the scenario in the binary form.
#[derive(Debug, Serialize, Deserialize)]
pub enum ReadScenario {
    Scenario(#[serde(with = "scenario::packed")] Box<Scenario>),
    Refused(String),
}

impl ReadScenario {
    fn of<E: std::fmt::Display>(read: Result<Scenario, E>) -> ReadScenario {
        match read {
            Ok(scenario) => ReadScenario::Scenario(Box::new(scenario)),
            Err(e) => ReadScenario::Refused(e.to_string()),
        }
    }

    /// The scenario, or why it does not open.
    pub fn into_result(self) -> Result<Scenario, String> {
        match self {
            ReadScenario::Scenario(scenario) => Ok(*scenario),
            ReadScenario::Refused(why) => Err(why),
        }
    }
}

/// What a tab opens on: the link in its address (`link`, the fragment), else what storage holds
/// (`stored`: none in an embed), else the first preset; `fresh_id` and `now` name a new entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OpenRequest {
    pub link: Option<String>,
    pub stored: Stored,
    pub fresh_id: String,
    pub now: f64,
}

/// A tab's opening ([`saved::open`]), why its link did not open (if it did not), the kept copies
/// the index does not list (a save cut short), and the presets for the menu.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opened {
    pub opening: Opening,
    pub problem: Option<String>,
    pub orphans: Vec<String>,
    pub presets: Vec<OpenedPreset>,
}

/// A preset as the page offers it: the scenario it opens on (`presets/opened/`), checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpenedPreset {
    pub id: String,
    pub title: String,
    #[serde(with = "scenario::packed")]
    pub scenario: Scenario,
}

impl OpenRequest {
    /// Opens the tab: the link read as `kap` reads it (`link::decode`, the frozen corpora's
    /// rules), the saved work and kept copies as `saved` reads them.
    pub fn open(&self) -> Opened {
        let (link, problem) = match self.link.as_deref().map(read_link) {
            None => (None, None),
            Some(Ok(scenario)) => (Some(scenario), None),
            Some(Err(why)) => (None, Some(why)),
        };
        let presets: Vec<OpenedPreset> = scenario::presets::all()
            .into_iter()
            .filter_map(|p| {
                let scenario = p.scenario().ok()?;
                Some(OpenedPreset { id: p.id.to_string(), title: p.title, scenario })
            })
            .collect();
        let first_preset = || presets.first().map(|p| p.scenario.clone()).unwrap_or_default();
        let read = |key: &str| self.stored.read(key);
        let opening = saved::open(&read, link, self.fresh_id.clone(), self.now, first_preset);
        let instead = if opening.opened_saved {
            "Your saved work is shown instead, unchanged"
        } else {
            "A preset is shown instead"
        };
        let index = read(saved::INDEX_KEY).and_then(|text| saved::read_index(&text).ok());
        let orphans = index.map(|index| saved::orphans(&index, &self.stored.keys())).unwrap_or_default();
        Opened { opening, problem: problem.map(|why| format!("{why}. {instead}.")), orphans, presets }
    }
}

/// A link's scenario as `kap` reads it (`link::decode`, the frozen corpora's rules), or why it does
/// not open: a link that cannot be read, or a scenario that cannot run (the opening's link and a
/// pasted one say it in the same words).
fn read_link(fragment: &str) -> Result<Scenario, String> {
    let scenario = scenario::link::decode(fragment).map_err(|e| e.to_string())?;
    match scenario::validate::errors(&scenario).first() {
        None => Ok(scenario),
        Some(why) => Err(format!("This link's scenario cannot run: {why}")),
    }
}

/// A scenario's text, to read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Text {
    /// A link's fragment.
    Link(String),
    /// A saved copy's JSON.
    Saved(String),
}

impl Text {
    /// The scenario, or why it does not open (a link's scenario that cannot run does not: [`read_link`]).
    pub fn read(&self) -> ReadScenario {
        match self {
            Text::Link(fragment) => ReadScenario::of(read_link(fragment)),
            Text::Saved(json) => ReadScenario::of(saved::read_scenario(json)),
        }
    }
}

/// A save to plan: what storage holds of the work and the index, this tab's session, and the
/// scenario's title and JSON ([`saved::plan_save`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanRequest {
    pub stored: Stored,
    pub session: Session,
    pub title: String,
    pub json: String,
    pub now: f64,
    pub fresh_id: String,
}

impl PlanRequest {
    /// The writes that save the scenario, or why it cannot be saved.
    pub fn plan(&self) -> Result<Box<Plan>, Unsaved> {
        let read = |key: &str| self.stored.read(key);
        saved::plan_save(&read, &self.session, &self.title, &self.json, self.now, self.fresh_id.clone()).map(Box::new)
    }
}

/// A worker's settled part as it crosses to the worker that writes it ([`PartText`]): JSON text,
/// read and written by the workers only (the page hands it on unread).
pub fn to_message<T: Serialize>(message: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(message)
}

/// A part read back from its JSON text ([`to_message`]).
pub fn from_message<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(text)
}

/// A message as it crosses between the page and its workers: bytes (postcard), read by position.
/// An answer needs none of JSON's parsing of field names and numbers on the page's thread, nor its
/// code (issue 9: a smaller page); a request's scenario is in the binary form
/// (`scenario::packed`: format 2's shared subscriptions and runs, every field written), so the
/// page links no writer or reader of the scenario file. Each message is handed over in one piece
/// (a transfer from the worker), where serde-wasm-bindgen built a JS object field by field.
pub trait Message: Serialize + DeserializeOwned {
    /// The message's bytes.
    fn encode(&self) -> Result<Vec<u8>, postcard::Error> {
        postcard::to_allocvec(self)
    }

    /// A message read back from its bytes.
    fn decode(bytes: &[u8]) -> Result<Self, postcard::Error> {
        postcard::from_bytes(bytes)
    }
}

impl Message for Request {}
impl Message for Reply {}
impl Message for ReadScenario {}

/// Which strategies a compute worker computes. The page runs two workers when the machine has two
/// cores or more (issue 9: a worker's time is nearly all the four rebalances and their checks, each
/// strategy about a quarter), each computing two strategies' panels of every version; one worker
/// alone computes everything ([`Share::All`]).
///
/// A version's strategies are independent: each rebalances from its own previous assignment. What
/// they share is the generation the version settles into, the last round's over all four (a
/// cooperative rebalance takes more rounds than an eager one), which the page gathers from the
/// answers and hands back ([`Request::Generation`]) before anything builds on that version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Share {
    /// Every strategy: the only worker.
    #[default]
    All,
    /// [`LEAD`]'s strategies, what every panel shares (problems, the coordinator's choice,
    /// advice), and a group on the consumer protocol whole; it also walks, imports and writes.
    Lead,
    /// [`HELP`]'s strategies.
    Help,
}

/// The strategies the leading worker computes: the two that keep nothing of the previous
/// assignment. Each share weighs about half of a version's time at 100,000 and at 1,000,000
/// partitions (`examples/answer_costs.rs`): range is the cheapest, roundrobin the dearest of the
/// four (its answer after a changed count moves nearly every partition, and its panel counts every
/// move), and the lead also works out what every panel shares.
pub const LEAD: [Strategy; 2] = [Strategy::Range, Strategy::RoundRobin];

/// The strategies the helping worker computes: the two sticky ones.
pub const HELP: [Strategy; 2] = [Strategy::Sticky, Strategy::CooperativeSticky];

impl Share {
    /// The shares of the workers the page runs with `workers` of them: the lead first.
    pub fn of_fleet(workers: usize) -> &'static [Share] {
        if workers > 1 {
            &[Share::Lead, Share::Help]
        } else {
            &[Share::All]
        }
    }

    /// The name a worker is started with (`WorkerOptions.name`), from which it knows its share.
    pub fn name(self) -> &'static str {
        match self {
            Share::All => "all",
            Share::Lead => "lead",
            Share::Help => "help",
        }
    }

    /// The share named `name` ([`Share::name`]); everything for any other name.
    pub fn named(name: &str) -> Share {
        [Share::Lead, Share::Help].into_iter().find(|s| s.name() == name).unwrap_or(Share::All)
    }

    /// The strategies this share computes of a classic group.
    pub fn strategies(self) -> &'static [Strategy] {
        match self {
            Share::All => &Strategy::ALL,
            Share::Lead => &LEAD,
            Share::Help => &HELP,
        }
    }

    /// The share among `shares` that answers for `panel` (a member opened in it): a classic
    /// strategy's worker; the lead for a server-side assignor.
    pub fn answering(shares: &[Share], panel: StrategyId) -> usize {
        let holds = |share: &Share| match panel {
            StrategyId::Classic(strategy) => share.strategies().contains(&strategy),
            StrategyId::Server(_) => *share != Share::Help,
        };
        shares.iter().position(holds).unwrap_or(0)
    }

    /// The report of `scenario` this share computes: its strategies of a classic group; every
    /// strategy and server-side assignor of a group on the consumer protocol, whose server-side
    /// assignors start from the classic choice's assignment (so that each worker keeps the
    /// whole settled assignment such a version leaves, which a later classic version splits).
    pub fn report(self, scenario: &Scenario) -> Report {
        if self == Share::All || scenario.consumer_protocol() {
            return Report::new(scenario);
        }
        let (mut report, model) = Report::begin(scenario);
        if let Some(model) = model {
            report.strategies = self.strategies().iter().map(|&s| StrategyReport::new(&model, s)).collect();
        }
        report
    }
}

/// A [`SettledPart`] as JSON text: the page hands it from one worker to another unread, so it
/// links no reader of its own for it.
pub type PartText = String;

/// What one worker settled a version into, as it crosses to the worker that writes the version
/// ([`Request::Part`]): each strategy's lists as runs over one layout of the topics
/// (`scenario::compact`), a few hundred kilobytes for a million partitions under two strategies
/// where the lists themselves would be tens of megabytes of JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettledPart {
    /// The previous assignment's generation, and members' own.
    pub generation: i32,
    pub generations: BTreeMap<String, Option<i32>>,
    /// `[topic, span]`: the flat indices the runs count through.
    pub layout: Vec<(String, u32)>,
    /// Per strategy name: the order of the layout's topics its runs use, and each member's runs.
    pub assignments: BTreeMap<String, (Vec<u64>, BTreeMap<String, String>)>,
    /// Deleted topics' ids ([`Previous::deleted_topic_ids`]).
    pub deleted_topic_ids: BTreeMap<String, String>,
}

impl SettledPart {
    /// `previous` as runs over `topics`' layout; `None` if a list cannot be written so.
    pub fn of(previous: &Previous, topics: &[scenario::TopicSpec]) -> Option<SettledPart> {
        let layout = Layout::of(topics, previous.assignments.values().map(|a| &**a));
        let mut assignments = BTreeMap::new();
        for (strategy, owned) in &previous.assignments {
            let order = layout.order_of(owned);
            let lists = layout.reordered(&order).ok()?.write_lists(owned)?;
            assignments.insert(strategy.clone(), (order, lists));
        }
        Some(SettledPart {
            generation: previous.generation,
            generations: previous.generations.clone(),
            layout: layout.spans,
            assignments,
            deleted_topic_ids: previous.deleted_topic_ids.clone(),
        })
    }

    /// The assignments back, each strategy's lists as written; `None` if the runs do not read.
    pub fn read(&self) -> Option<Previous> {
        let layout = Layout { spans: self.layout.clone() };
        let mut budget = MAX_ENTRIES;
        let mut assignments = BTreeMap::new();
        for (strategy, (order, lists)) in &self.assignments {
            let ordered = layout.reordered(order).ok()?;
            let mut owned = Owned::new();
            for (member, runs) in lists {
                owned.insert(member.clone(), ordered.read_list(runs, &mut budget).ok()?);
            }
            assignments.insert(strategy.clone(), std::sync::Arc::new(owned));
        }
        Some(Previous {
            generation: self.generation,
            generations: self.generations.clone(),
            assignments,
            deleted_topic_ids: self.deleted_topic_ids.clone(),
        })
    }
}

/// Other workers' shares read back; `None` if one does not read.
fn read_parts(parts: &[PartText]) -> Option<Vec<Previous>> {
    parts.iter().map(|text| from_message::<SettledPart>(text).ok()?.read()).collect()
}

/// Previous assignments put together: every strategy's lists from whichever holds them.
fn union(parts: impl IntoIterator<Item = Previous>) -> Option<Previous> {
    parts.into_iter().reduce(|mut whole, part| {
        whole.generation = whole.generation.max(part.generation);
        whole.generations.extend(part.generations);
        whole.assignments.extend(part.assignments);
        whole
    })
}

/// Which versions the workers hold split, each its share of the strategies: a classic group's,
/// computed by several workers. A group on the consumer protocol is computed whole by every worker
/// ([`Share::report`]), so the first version on it after a classic one needs the history that
/// version settled into whole: the page gathers every worker's share of it first
/// ([`Request::Part`]) and sends it with the job ([`Request::Compute`]'s `history`).
#[derive(Debug, Default)]
pub struct Split {
    versions: BTreeSet<Version>,
}

impl Split {
    /// `jobs` go to `workers` workers now.
    pub fn sent(&mut self, jobs: &[Job], workers: usize) {
        for job in jobs {
            if workers > 1 && !job.scenario.consumer_protocol() {
                self.versions.insert(job.version);
            } else {
                self.versions.remove(&job.version);
            }
        }
    }

    /// The version whose history `jobs` need whole before they go, if any.
    pub fn needs(&self, jobs: &[Job]) -> Option<Version> {
        let first = jobs.first().filter(|j| j.scenario.consumer_protocol())?;
        match first.prior {
            Prior::Settled(base) if self.versions.contains(&base) => Some(base),
            _ => None,
        }
    }
}

/// The page's side of the workers' shares of one version: the parts of the version at the workers
/// gathered, and put together into the answer one worker alone would give once all are in.
#[derive(Debug, Default)]
pub struct Gather {
    /// The version being computed, and how many parts it takes.
    expected: Option<(Version, usize)>,
    /// Each part with the worker it came from.
    parts: Vec<(usize, Answer)>,
}

impl Gather {
    /// `version` was sent to `workers` workers: its parts are gathered from now on; any gathered
    /// before are dropped.
    pub fn expect(&mut self, version: Version, workers: usize) {
        self.expected = Some((version, workers));
        self.parts.clear();
    }

    /// Worker `worker`'s part (the lead is worker 0): the whole answer once every part of the
    /// version expected is in, whatever order they came in. A part of any other version is stale
    /// and dropped.
    pub fn add(&mut self, worker: usize, part: Answer) -> Option<Answer> {
        let (version, workers) = self.expected?;
        if part.version != version || self.parts.iter().any(|(w, _)| *w == worker) {
            return None;
        }
        self.parts.push((worker, part));
        if self.parts.len() < workers {
            return None;
        }
        self.expected = None;
        let parts = in_order_of(std::mem::take(&mut self.parts), |(worker, _)| *worker);
        Some(Answer::merge(parts.into_iter().map(|(_, part)| part).collect()))
    }
}

impl Answer {
    /// The answer of one version put together from the workers' parts (the lead's first): what
    /// every panel shares from the lead's, every strategy's panel in `Strategy::ALL` order, the
    /// settled assignment (and the previous one) whole when every part crossed and the whole is
    /// small enough to, the group's generation the highest of the parts'.
    pub fn merge(parts: Vec<Answer>) -> Answer {
        let mut parts = parts.into_iter();
        let Some(mut whole) = parts.next() else { return Answer::default() };
        let rest: Vec<Answer> = parts.collect();
        if rest.is_empty() {
            return whole;
        }
        let order = |p: &scenario::digest::PanelDigest| match p.panel {
            StrategyId::Classic(s) => Strategy::ALL.iter().position(|&a| a == s).unwrap_or(usize::MAX),
            StrategyId::Server(_) => usize::MAX,
        };
        // Whole when every part crossed, and small enough to cross whole.
        let whole_of = |own: Option<Previous>, others: Vec<Option<Previous>>| {
            let all: Option<Vec<Previous>> = std::iter::once(own).chain(others).collect();
            all.and_then(union).filter(|p| p.entries() <= INLINE_ENTRIES)
        };
        let mut panels = std::mem::take(&mut whole.computed.panels);
        panels.extend(rest.iter().flat_map(|p| p.computed.panels.iter().cloned()));
        let mut panels = in_order_of(panels, |p| order(p));
        panels.dedup_by_key(|p| order(p));
        whole.computed.panels = panels;
        whole.previous = whole_of(whole.previous.take(), rest.iter().map(|p| p.previous.clone()).collect());
        whole.settled = whole_of(whole.settled.take(), rest.iter().map(|p| p.settled.clone()).collect());
        whole.prior_lost |= rest.iter().any(|p| p.prior_lost);
        whole.generation = rest.iter().map(|p| p.generation).fold(whole.generation, i32::max);
        whole.compute_ms = rest.iter().map(|p| p.compute_ms).fold(whole.compute_ms, f64::max);
        whole
    }
}

/// `items` ordered by `key`, equal keys in their order in `items`: for the few parts and panels of
/// one answer, picked one by one rather than sorted, as each type sorted costs the page's wasm its
/// own copy of the standard library's sort (issue 9).
fn in_order_of<T, K: Ord>(mut items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut ordered = Vec::with_capacity(items.len());
    // `min_by_key` returns the first of equal keys: the order stays stable.
    while let Some(first) = items.iter().enumerate().min_by_key(|(_, item)| key(item)).map(|(i, _)| i) {
        ordered.push(items.remove(first));
    }
    ordered
}

/// The entries the workers hold in all, at most, for a scenario's settled assignment: every
/// partition under every strategy, split among the workers for a classic group (each holds its
/// share, [`Share`]); a group on the consumer protocol held whole by each of the two workers the
/// page runs at most, with each server-side assignor's target (`Report::settled` keeps them too).
/// Cheap: from the topics, without computing anything.
pub fn settled_entries(scenario: &Scenario) -> usize {
    let partitions: usize = scenario.topics.iter().map(|t| t.partitions as usize).sum();
    let assignments = if scenario.consumer_protocol() {
        scenario::StrategyId::ALL.len() * Share::of_fleet(usize::MAX).len()
    } else {
        assignor::Strategy::ALL.len()
    };
    partitions.saturating_mul(assignments)
}

/// The page's side of latest-wins: at most one request at the worker and one waiting. A newer
/// request replaces the waiting one.
///
/// With several workers ([`Share`]) each version is sent on its own, the versions it builds on
/// first, each only once every worker has settled the one before: the next starts from the
/// group's generation, which the page learns from all their parts ([`Request::Generation`]).
#[derive(Debug, Default)]
pub struct Queue {
    /// The version the worker is computing.
    busy: Option<Version>,
    /// Whether it is answered (not only settled on the way to the version wanted).
    answering: bool,
    /// What goes next: the newest job last, the versions it builds on before it.
    waiting: Vec<Job>,
    /// One version at a time.
    serial: bool,
}

impl Queue {
    /// The queue of a worker still loading: everything waits until it says it is ready.
    pub fn loading() -> Queue {
        Queue { busy: Some(0), ..Queue::default() }
    }

    /// The queue of several workers still loading: one version at a time.
    pub fn serial() -> Queue {
        Queue { serial: true, ..Queue::loading() }
    }

    /// `jobs` (see [`Request::Compute`]) are wanted now: what to send at once (the worker is idle),
    /// or nothing (they wait, replacing whatever waited).
    pub fn push(&mut self, mut jobs: Vec<Job>) -> Option<Vec<Job>> {
        if let Some(busy) = self.busy {
            let back_to_busy = jobs.last().is_some_and(|j| j.version == busy);
            if back_to_busy && self.answering {
                // Back to the version being computed (undo, redo): its answer is on its way.
                self.waiting = Vec::new();
                return None;
            }
            if !back_to_busy {
                // The worker settles the version it is computing before it reads the next request.
                jobs.retain(|j| j.version != busy);
            }
            // Back to a version being only settled: it is computed and answered next.
            self.waiting = jobs;
            return None;
        }
        self.next(jobs)
    }

    /// The worker answered: what to send next, if anything waits.
    pub fn done(&mut self) -> Option<Vec<Job>> {
        let jobs = std::mem::take(&mut self.waiting);
        self.next(jobs)
    }

    fn next(&mut self, mut jobs: Vec<Job>) -> Option<Vec<Job>> {
        if self.serial && jobs.len() > 1 {
            self.waiting = jobs.split_off(1);
        }
        self.busy = jobs.last().map(|j| j.version);
        self.answering = self.waiting.is_empty();
        (!jobs.is_empty()).then_some(jobs)
    }

    /// The version at the worker, if any.
    pub fn busy(&self) -> Option<Version> {
        self.busy
    }

    /// Whether the version at the worker is to be answered, rather than only settled on the way to
    /// the one wanted ([`Engine::settle`]).
    pub fn answering(&self) -> bool {
        self.answering
    }

    /// The versions waiting to be sent.
    pub fn waiting(&self) -> impl Iterator<Item = Version> + '_ {
        self.waiting.iter().map(|j| j.version)
    }
}

/// The worker's side: computes jobs and keeps what each version settled into, and the last
/// version's report, from which a big group's opened members are answered.
#[derive(Debug, Default)]
pub struct Engine {
    /// The strategies it computes.
    share: Share,
    settled: BTreeMap<Version, Rc<Previous>>,
    last: Option<(Version, Report, Scenario)>,
    /// The walk last asked for (its version and strategy), recorded once for all its steps.
    walk: Option<(Version, StrategyId, Result<Walkthrough, String>)>,
}

impl Engine {
    /// The engine of a worker computing `share`.
    pub fn new(share: Share) -> Engine {
        Engine { share, ..Engine::default() }
    }

    /// Computes `jobs` in order (the last is answered; the others are only settled) after dropping
    /// the settled assignments of versions not in `keep`.
    pub fn compute(&mut self, jobs: Vec<Job>, keep: &[Version]) -> Option<Answer> {
        self.jobs(jobs, keep, true)
    }

    /// Settles `jobs` in order, none answered (the page waits for the group's generation of each
    /// before anything builds on it: [`Share`]): what the last settled into, as an answer without
    /// panels.
    pub fn settle(&mut self, jobs: Vec<Job>, keep: &[Version]) -> Option<Answer> {
        self.jobs(jobs, keep, false)
    }

    fn jobs(&mut self, jobs: Vec<Job>, keep: &[Version], answer_last: bool) -> Option<Answer> {
        let keep: BTreeSet<Version> = keep
            .iter()
            .copied()
            .chain(jobs.iter().filter_map(|j| match j.prior {
                Prior::Settled(v) => Some(v),
                Prior::Inline => None,
            }))
            .collect();
        self.settled.retain(|version, _| keep.contains(version));
        let count = jobs.len();
        let mut answer = None;
        for (i, job) in jobs.into_iter().enumerate() {
            let last = i + 1 == count;
            // A version settled already (its answer came after the page had moved on) is not
            // settled again.
            if last && answer_last {
                answer = Some(self.run(job, true));
            } else if let Some(settled) = self.settled.get(&job.version) {
                let generation = settled.generation;
                answer = Some(Answer { version: job.version, generation, ..Answer::default() });
            } else {
                answer = Some(self.run(job, false));
            }
        }
        answer
    }

    /// The other workers' `parts` of what `version` settled into, put with this one's: a job on
    /// the consumer protocol computes every strategy from it ([`Split`]).
    pub fn receive(&mut self, version: Version, parts: &[PartText]) {
        let own = self.settled.get(&version).map(|p| (**p).clone());
        let Some(others) = read_parts(parts) else { return };
        if let Some(whole) = union(own.into_iter().chain(others)) {
            self.settled.insert(version, Rc::new(whole));
        }
    }

    /// The group's generation `version` settled into, over every worker's share: what the next
    /// rebalance from it starts from.
    pub fn generation(&mut self, version: Version, generation: i32) {
        if let Some(settled) = self.settled.get_mut(&version) {
            Rc::make_mut(settled).generation = generation;
        }
    }

    fn run(&mut self, job: Job, answered: bool) -> Answer {
        // A job read from a message is the worker's alone: taken, not copied.
        let scenario = Rc::try_unwrap(job.scenario).unwrap_or_else(|shared| (*shared).clone());
        let (whole, prior_lost) = match job.prior {
            Prior::Inline => (scenario, false),
            Prior::Settled(base) => {
                let previous = self.settled.get(&base).map(|p| (**p).clone());
                let lost = previous.is_none();
                (Scenario { previous, ..scenario }, lost)
            }
        };
        let report = self.share.report(&whole);
        let settled = report.settled(&whole).previous.unwrap_or_default();
        let crosses = |p: &Previous| answered && p.entries() <= INLINE_ENTRIES;
        let answer = Answer {
            version: job.version,
            // A group on the consumer protocol is the lead's to show whole ([`Share::report`]).
            computed: if answered && !(self.share == Share::Help && whole.consumer_protocol()) {
                Computed::new(&report, &whole)
            } else {
                Computed::default()
            },
            previous: match job.prior {
                Prior::Settled(_) => whole.previous.as_ref().filter(|p| crosses(p)).cloned(),
                Prior::Inline => None,
            },
            settled: crosses(&settled).then(|| settled.clone()),
            prior_lost,
            generation: settled.generation,
            compute_ms: 0.0,
        };
        if warm_up_round(job.version).is_some() && self.share != Share::Help {
            // After each edit's answer the page has this worker write the scenario (its link and
            // saved copy, `Request::Write`); the first edit's write was the largest code it still
            // had V8 compile optimised (traced): the warm-up writes too.
            let _ = crate::travel::Texts::of(&whole);
        }
        self.settled.insert(job.version, Rc::new(settled));
        self.last = None;
        if answered && !shows_chips(report.total_partitions, report.members.len()) {
            // Only a summarised group's members are opened one by one.
            self.last = Some((job.version, report, whole));
        }
        answer
    }

    /// `request`'s member in a panel of `version` (`None`: not in that panel), or `Err(())` when
    /// `version` is not the summarised version last computed and cannot be computed again: `again`
    /// (its job) is not given, or its previous assignment is no longer kept.
    #[allow(clippy::result_unit_err)]
    pub fn member(
        &mut self,
        version: Version,
        request: &MemberRequest,
        again: Option<Job>,
    ) -> Result<Option<MemberDetail>, ()> {
        if !matches!(&self.last, Some((last, ..)) if *last == version) {
            // An undo or a redo painted a version whose answer it kept: its report, from the same
            // scenario and previous assignment, replaces the last one's.
            let job = again.filter(|job| job.version == version).ok_or(())?;
            let whole = match job.prior {
                Prior::Inline => (*job.scenario).clone(),
                Prior::Settled(base) => self.whole(base, &job.scenario).ok_or(())?,
            };
            self.last = Some((version, self.share.report(&whole), whole));
        }
        match &self.last {
            Some((last, report, scenario)) if *last == version => Ok(member_detail(report, scenario, request)),
            _ => Err(()),
        }
    }

    /// `scenario` with the assignment `prior` settled into as its previous one (what a small
    /// group's scenario holds itself), or `None` when `prior` is not kept.
    pub fn whole(&self, prior: Version, scenario: &Scenario) -> Option<Scenario> {
        self.whole_with(prior, scenario, &[])
    }

    /// [`Engine::whole`], the other workers' `parts` of `prior`'s settled assignment put with
    /// this one's; `None` when this worker no longer keeps it or a part does not read.
    pub fn whole_with(&self, prior: Version, scenario: &Scenario, parts: &[PartText]) -> Option<Scenario> {
        let own = (**self.settled.get(&prior)?).clone();
        let previous = union(std::iter::once(own).chain(read_parts(parts)?));
        Some(Scenario { previous, ..scenario.clone() })
    }

    /// This worker's share of what `prior` settled into, as it crosses to the worker that writes
    /// it; `None` when it no longer keeps it.
    pub fn part(&self, prior: Version) -> Option<PartText> {
        to_message(&SettledPart::of(self.settled.get(&prior)?, &[])?).ok()
    }

    /// The texts of `scenario` with its previous assignment where `prior` says: its own (a small
    /// group's) or what the worker settled (`None` when that is no longer kept).
    pub fn write(&self, prior: Prior, scenario: &Scenario) -> Option<crate::travel::Texts> {
        self.write_with(prior, scenario, &[])
    }

    /// [`Engine::write`], with the other workers' `parts` of a settled assignment
    /// ([`Engine::whole_with`]).
    pub fn write_with(&self, prior: Prior, scenario: &Scenario, parts: &[PartText]) -> Option<crate::travel::Texts> {
        match prior {
            Prior::Inline => Some(crate::travel::Texts::of(scenario)),
            Prior::Settled(base) => {
                self.whole_with(base, scenario, parts).map(|whole| crate::travel::Texts::of(&whole))
            }
        }
    }

    /// The step `request` asks for, from the walk recorded for its version and strategy (recorded
    /// now from `scenario`, the version's, if it is not the last one asked for), or why there is
    /// none.
    pub fn walk(&mut self, request: &WalkRequest, scenario: &Scenario) -> Result<WalkFrame, String> {
        let walk = match self.walk.take() {
            Some(walk) if walk.0 == request.version && walk.1 == request.strategy => walk,
            _ => (request.version, request.strategy, record(scenario, request.strategy)),
        };
        let frame = match &walk.2 {
            Ok(walkthrough) => Ok(frame(walkthrough, request.step)),
            Err(why) => Err(why.clone()),
        };
        self.walk = Some(walk);
        frame
    }

    /// The versions whose settled assignment is kept.
    pub fn kept(&self) -> Vec<Version> {
        self.settled.keys().copied().collect()
    }
}

/// `strategy`'s walk through `scenario`'s group, or why there is none. Bounded: only a group whose
/// panels show chips is walked (a panel offers the walkthrough only there), so a step's lists hold
/// at most 500 partitions. At 100,000 partitions (10 topics, 100 consumers) a walk has 100,000
/// steps, 3 MB as `kap explain` writes them, and each step's lists up to every partition.
fn record(scenario: &Scenario, strategy: StrategyId) -> Result<Walkthrough, String> {
    let partitions: usize = scenario.topics.iter().map(|t| t.partitions as usize).sum();
    if !shows_chips(partitions, scenario.consumers.len()) {
        return Err(format!(
            "The walkthrough is offered for groups of at most {} partitions and {} consumers.",
            scenario::digest::CHIP_LIMIT,
            scenario::digest::ROW_LIMIT
        ));
    }
    let model = scenario::Model::new(scenario)
        .map_err(|problems| problems.first().map(ToString::to_string).unwrap_or_default())?;
    Walkthrough::new(&model, strategy).map_err(|e| e.to_string())
}

/// Step `step` of `walkthrough` (the last, if there are fewer) as the page shows it; a walk without
/// steps has a frame counting none.
fn frame(walkthrough: &Walkthrough, step: usize) -> WalkFrame {
    let count = walkthrough.steps.len();
    let step = step.min(count.saturating_sub(1));
    let Some(current) = walkthrough.steps.get(step).map(|s| &s.step) else { return WalkFrame::default() };
    let (focus_partition, focus_members) = current.focus();
    WalkFrame {
        step,
        count,
        sentence: current.to_string(),
        orders: (walkthrough.orders_after(step + 1).into_iter())
            .map(|(name, items)| (name.to_string(), items.join(", ")))
            .collect(),
        lists: (walkthrough.lists_after(step + 1).into_iter())
            .map(|(member, list)| (member, list.iter().map(ToString::to_string).collect()))
            .collect(),
        focus_partition: focus_partition.map(ToString::to_string),
        focus_members: focus_members.into_iter().map(String::from).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use assignor::Strategy;
    use scenario::StrategyId;

    fn job(version: Version, prior: Prior) -> Job {
        Job { version, prior, scenario: Rc::new(Scenario::default()) }
    }

    fn versions(jobs: &Option<Vec<Job>>) -> Option<Vec<Version>> {
        jobs.as_ref().map(|jobs| jobs.iter().map(|j| j.version).collect())
    }

    #[test]
    fn in_order_of_orders_by_key_and_keeps_equal_keys_in_their_order() {
        let items = vec![(2, 'a'), (0, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        let mut sorted = items.clone();
        sorted.sort_by_key(|(key, _)| *key);
        assert_eq!(in_order_of(items, |(key, _)| *key), sorted);
        assert_eq!(in_order_of(Vec::<(u8, char)>::new(), |(key, _)| *key), []);
    }

    #[test]
    fn the_settled_bound_counts_every_assignment_a_settled_scenario_holds() {
        // Every partition is assigned in these presets, so the bound is reached exactly; on the
        // consumer protocol the two server-side targets are kept beside the four strategies', by
        // both workers.
        for (name, assignments, copies) in [("range-imbalance", 4, 1), ("consumer-protocol-uniform", 6, 2)] {
            let scenario = preset(name);
            let held = |share: Share| {
                let settled = share.report(&scenario).settled(&scenario);
                settled.previous.as_ref().map_or(0, Previous::entries)
            };
            let partitions: usize = scenario.topics.iter().map(|t| t.partitions as usize).sum();
            assert_eq!(held(Share::All), partitions * assignments, "{name}");
            assert_eq!(held(Share::Lead) + held(Share::Help), held(Share::All) * copies, "{name}");
            assert_eq!(settled_entries(&scenario), held(Share::All) * copies, "{name}");
        }
    }

    #[test]
    fn an_idle_worker_gets_the_job_at_once_and_a_busy_one_never_queues_stale_work() {
        let mut queue = Queue::default();
        assert_eq!(versions(&queue.push(vec![job(1, Prior::Inline)])), Some(vec![1]));
        // Typing into one field: each keystroke starts from version 1 settled, replacing the last.
        for v in 2..=5 {
            assert_eq!(versions(&queue.push(vec![job(v, Prior::Settled(1))])), None);
            assert_eq!(queue.waiting().collect::<Vec<_>>(), [v]);
        }
        assert_eq!(queue.busy(), Some(1));
        assert_eq!(versions(&queue.done()), Some(vec![5]));
        assert_eq!(versions(&queue.done()), None);
        assert_eq!(queue.busy(), None);
    }

    #[test]
    fn the_versions_a_job_builds_on_go_with_it_unless_the_worker_has_them() {
        let mut queue = Queue::default();
        queue.push(vec![job(1, Prior::Inline)]);
        // Version 3 builds on version 2, never answered; version 1 is at the worker already.
        queue.push(vec![job(1, Prior::Inline), job(2, Prior::Settled(1)), job(3, Prior::Settled(2))]);
        assert_eq!(queue.waiting().collect::<Vec<_>>(), [2, 3]);
        // Back to the version being computed: nothing more to send.
        queue.push(vec![job(1, Prior::Inline)]);
        assert_eq!(queue.waiting().count(), 0);
        // A loaded scenario needs nothing before it.
        queue.push(vec![job(5, Prior::Inline)]);
        assert_eq!(versions(&queue.done()), Some(vec![5]));
        // A worker still loading takes nothing until it is ready.
        let mut loading = Queue::loading();
        assert_eq!(versions(&loading.push(vec![job(1, Prior::Inline)])), None);
        assert_eq!(versions(&loading.done()), Some(vec![1]));
    }

    /// Import JSON's file crosses to the file reader and back: a scenario file opens as it was
    /// written, a `kap batch` line opens as its rebalance, and a consumer-protocol line that
    /// Kafka's coordinator throws on is refused with `kap batch`'s message.
    #[test]
    fn a_file_opens_in_the_reader_or_says_why_not() {
        let opened = |text: &str| {
            let reply = open_file(text).encode().unwrap_or_default();
            ReadScenario::decode(&reply).unwrap_or_else(|e| panic!("{e}")).into_result()
        };
        let sticky = preset("sticky-crash-c1");
        assert_eq!(opened(&scenario::to_json(&sticky)), Ok(sticky));
        let line = r#"{"strategy":"range","topics":{"t0":3},"members":[{"id":"C0","topics":["t0"]},{"id":"C1","topics":["t0"]}]}"#;
        let group = opened(line).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(group.consumers.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["C0", "C1"]);
        assert_eq!(group.topics[0].partitions, 3);
        let ids = r#""topic_ids":{"a":"eZUeEuqvSSGGPuIabmBwqg"}"#;
        let thrown = format!(
            r#"{{"protocol":"consumer","strategy":"uniform","topics":{{"a":3}},{ids},"members":[{{"id":"A","topics":["a"],"owned":[["a",7]]}},{{"id":"B","topics":[]}}]}}"#
        );
        assert_eq!(opened(&thrown), Err("ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3".into()));
        assert!(opened("{").is_err_and(|why| why.starts_with("not JSON")));
    }

    fn preset(id: &str) -> Scenario {
        scenario::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default()
    }

    /// A message crossed to the page and read back there.
    fn crossed(reply: Reply) -> Reply {
        Reply::decode(&reply.encode().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The opening the worker gives a tab, as the page reads it.
    fn opened(link: Option<String>, stored: &[(&str, String)]) -> Opened {
        let stored = Stored(stored.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
        let request = OpenRequest { link, stored, fresh_id: "fresh".into(), now: 1.0 };
        match crossed(Reply::Opened { ticket: 3, opened: Box::new(request.open()) }) {
            Reply::Opened { ticket: 3, opened } => *opened,
            other => panic!("{other:?}"),
        }
    }

    /// A tab opens in the worker on what the page opened on when it read them itself: the link
    /// (as `kap link` wrote it), else the saved work, else the first preset; a link that does not
    /// open says why and what is shown instead; the presets come with it, each its stored file.
    #[test]
    fn a_tab_opens_on_its_link_its_saved_work_or_the_first_preset() {
        let (linked, saved_work) = (preset("sticky-crash-c1"), preset("range-imbalance"));
        let link = scenario::link::encode(&linked);
        let work = [(saved::WORK_KEY, scenario::to_json(&saved_work))];

        let on_link = opened(Some(link.clone()), &work);
        assert_eq!(on_link.opening.scenario, linked);
        assert_eq!(on_link.opening.previous.map(|kept| kept.scenario), Some(saved_work.clone()), "kept, offered back");
        assert_eq!(on_link.problem, None);

        let on_work = opened(None, &work);
        assert_eq!(on_work.opening.scenario, saved_work);
        assert!(on_work.opening.opened_saved);

        let damaged = opened(Some(format!("{}!", &link[..link.len() / 2])), &work);
        assert_eq!(damaged.opening.scenario, saved_work);
        let problem = damaged.problem.unwrap_or_default();
        assert!(problem.starts_with("this link is damaged"), "{problem}");
        assert!(problem.ends_with("Your saved work is shown instead, unchanged."), "{problem}");

        let fresh = opened(None, &[]);
        let presets = scenario::presets::all();
        assert_eq!(fresh.presets.len(), presets.len());
        for (offered, preset) in fresh.presets.iter().zip(&presets) {
            assert_eq!((offered.id.as_str(), &offered.title), (preset.id, &preset.title));
            assert_eq!(Some(&offered.scenario), preset.scenario().ok().as_ref());
        }
        assert_eq!(fresh.opening.scenario, fresh.presets[0].scenario);
        assert!(!fresh.opening.opened_saved);
    }

    /// Saved work this version cannot read stays unread and is said so; a kept copy the index does
    /// not list (a save cut short) is found for the page to remove; a large group's saved copy
    /// (format 2) crosses whole, its previous assignment included.
    #[test]
    fn saved_copies_open_in_the_worker_as_saved() {
        let cut = [(saved::WORK_KEY, "{\"topics\": [".to_string())];
        let unreadable = opened(None, &cut);
        assert_eq!(unreadable.opening.unreadable.map(|u| u.text), Some(cut[0].1.clone()));
        let stray = saved::kept_key("stray");
        let index = r#"{"version":1,"kept":[]}"#.to_string();
        let orphaned = opened(None, &[(saved::INDEX_KEY, index), (stray.as_str(), "{}".into())]);
        assert_eq!(orphaned.orphans, [stray]);

        let names: Vec<String> = (0..20).map(|t| format!("topic{t}")).collect();
        let consumers = (0..120)
            .map(|i| {
                scenario::ConsumerSpec::new(format!("c{i}"), &names.iter().map(String::as_str).collect::<Vec<_>>())
            })
            .collect();
        let topics = names.iter().map(|n| scenario::TopicSpec::new(n.as_str(), 50)).collect();
        let fresh = Scenario { topics, consumers, ..Scenario::default() };
        let large = Report::new(&fresh).settled(&fresh);
        assert_eq!(large.form(), scenario::Form::Compact);
        let json = scenario::to_json(&large);
        let reopened = opened(None, &[(saved::WORK_KEY, json.clone())]);
        assert_eq!(Ok(reopened.opening.scenario), scenario::read_file(&json));
    }

    /// A link pasted into an open tab and a kept copy switched back to are read in the worker, as
    /// at the opening.
    #[test]
    fn a_pasted_link_and_a_kept_copy_are_read_in_the_worker() {
        let read = |text: Text| match crossed(Reply::Read { ticket: 1, scenario: text.read() }) {
            Reply::Read { ticket: 1, scenario } => scenario.into_result(),
            other => panic!("{other:?}"),
        };
        let linked = preset("sticky-crash-c1");
        assert_eq!(read(Text::Link(scenario::link::encode(&linked))), Ok(linked.clone()));
        assert_eq!(read(Text::Saved(scenario::to_json(&linked))), Ok(linked.clone()));
        let linked_copy = linked;
        assert!(read(Text::Link("v1.AAAA".into())).is_err_and(|why| why.starts_with("this link is damaged")));
        assert!(read(Text::Saved("{".into())).is_err_and(|why| why.starts_with("it was cut short")));
        // A link that reads but cannot run is refused in the opening's words.
        let untitled = Scenario { title: "a".repeat(201), ..linked_copy };
        assert_eq!(
            read(Text::Link(scenario::link::encode(&untitled))),
            Err("This link's scenario cannot run: a title has at most 200 characters".into())
        );
    }

    /// A save planned in the worker keeps what another tab saved, as `saved::plan_save` does.
    #[test]
    fn a_save_is_planned_in_the_worker() {
        let (theirs, mine) = (preset("range-imbalance"), preset("sticky-crash-c1"));
        let stored = Stored(vec![(saved::WORK_KEY.to_string(), scenario::to_json(&theirs))]);
        let session = Session::new("mine".into(), saved::Origin::Own, 1.0);
        let json = scenario::to_json(&mine);
        let request =
            PlanRequest { stored, session, title: saved::title_of(&mine), json, now: 2.0, fresh_id: "x".into() };
        let plan = match crossed(Reply::Planned { ticket: 4, plan: request.plan() }) {
            Reply::Planned { ticket: 4, plan } => plan.unwrap_or_else(|why| panic!("{why}")),
            other => panic!("{other:?}"),
        };
        assert_eq!(plan.index.kept.iter().map(|e| e.title.as_str()).collect::<Vec<_>>(), [theirs.title.as_str()]);
        assert_eq!(plan.index.work.map(|e| e.title), Some(mine.title));
    }

    /// The worker's answer for a chain of versions is the report of the scenario built the way the
    /// reducer used to build it on the main thread: each edit from the last scenario settled.
    #[test]
    fn the_engine_answers_exactly_what_the_report_of_the_whole_scenario_gives() {
        use scenario::edit::Edit;
        let first = preset("range-imbalance");
        let mut engine = Engine::default();
        let one = engine.compute(vec![Job { version: 1, prior: Prior::Inline, scenario: Rc::new(first.clone()) }], &[]);
        let one = one.unwrap_or_else(|| panic!("no answer"));
        assert_eq!(one.computed, Computed::new(&Report::new(&first), &first));
        // The small group comes back settled: the page can hold it whole.
        let settled_by_report = Report::new(&first).settled(&first);
        assert_eq!(one.settled, settled_by_report.previous);

        // Two edits, the first never sent on its own (it was waiting when the second came).
        let shape = |s: &Scenario| Rc::new(Scenario { previous: None, ..s.clone() });
        let two = Edit::AddConsumer.apply(&settled_by_report).unwrap_or_default();
        let three =
            Edit::SetPartitions { topic: 0, partitions: 7 }.apply(&Report::new(&two).settled(&two)).unwrap_or_default();
        let jobs = vec![
            Job { version: 2, prior: Prior::Settled(1), scenario: shape(&two) },
            Job { version: 3, prior: Prior::Settled(2), scenario: shape(&three) },
        ];
        let answer = engine.compute(jobs, &[1]).unwrap_or_else(|| panic!("no answer"));
        assert_eq!(answer.version, 3);
        assert!(!answer.prior_lost);
        assert_eq!(answer.computed, Computed::new(&Report::new(&three), &three));
        assert_eq!(answer.previous, three.previous);
        assert_eq!(engine.kept(), [1, 2, 3]);

        // The page keeps only version 3: a later job on version 1 says so and computes a fresh group.
        let four = Job { version: 4, prior: Prior::Settled(3), scenario: shape(&three) };
        assert!(engine.compute(vec![four], &[3]).is_some_and(|a| !a.prior_lost));
        assert_eq!(engine.kept(), [3, 4]);
        let lost = engine.compute(vec![Job { version: 5, prior: Prior::Settled(1), scenario: shape(&two) }], &[4]);
        let lost = lost.unwrap_or_else(|| panic!("no answer"));
        assert_eq!(engine.kept(), [4, 5]);
        assert!(lost.prior_lost);
        let fresh = Scenario { previous: None, ..two };
        assert_eq!(lost.computed, Computed::new(&Report::new(&fresh), &fresh));
    }

    /// The page's side of two workers, as `browser::ComputeWorker` drives them: each version goes
    /// to both (the versions it builds on first, one at a time, only settled), the parts come back
    /// in the order given (`reversed`: the helper's first) and are gathered into one answer, and
    /// the group's generation goes back to both before anything builds on the version. Each
    /// version's parts' generations are returned beside the answer.
    fn fleet_compute(
        engines: &mut [Engine; 2],
        split: &mut Split,
        jobs: Vec<Job>,
        keep: &[Version],
        reversed: bool,
    ) -> (Answer, Vec<[i32; 2]>) {
        let mut queue = Queue::serial();
        queue.done();
        let mut gather = Gather::default();
        let mut generations = Vec::new();
        let mut sent = queue.push(jobs);
        loop {
            let batch = sent.unwrap_or_else(|| panic!("nothing sent"));
            if let Some(base) = split.needs(&batch) {
                let parts: Vec<PartText> = engines.iter().filter_map(|e| e.part(base)).collect();
                assert_eq!(parts.len(), 2);
                engines.iter_mut().for_each(|e| e.receive(base, &parts));
            }
            split.sent(&batch, 2);
            let version = batch.last().map_or(0, |j| j.version);
            gather.expect(version, 2);
            let answering = queue.answering();
            let mut parts: Vec<(usize, Answer)> = (engines.iter_mut().enumerate())
                .map(|(worker, engine)| {
                    let part = if answering {
                        engine.compute(batch.clone(), keep)
                    } else {
                        engine.settle(batch.clone(), keep)
                    };
                    (worker, part.unwrap_or_else(|| panic!("no part")))
                })
                .collect();
            if reversed {
                parts.reverse();
            }
            generations.push([parts[0].1.generation, parts[1].1.generation]);
            let whole = parts.into_iter().find_map(|(worker, part)| gather.add(worker, part));
            let whole = whole.unwrap_or_else(|| panic!("no whole answer"));
            engines.iter_mut().for_each(|e| e.generation(whole.version, whole.generation));
            sent = queue.done();
            if answering {
                assert!(sent.is_none());
                return (whole, generations);
            }
        }
    }

    /// Two workers, each computing its share of the strategies, answer exactly what one worker
    /// computing all of them answers, version after version of a group settled in the workers:
    /// edits that came faster than the answers (a version settled on the way), a cooperative
    /// rebalance of two rounds beside eager ones of one (the group's generation is the lead's),
    /// a switch to the consumer protocol and back, parts gathered in either order. The history
    /// written, a big group's opened members and a walk are the same too.
    #[test]
    fn two_workers_answer_exactly_what_one_worker_answers() {
        use scenario::edit::Edit;
        // Each share's settled assignment crosses on its own (10,400 entries), the whole does not.
        let mut first = preset("range-imbalance");
        first.topics[0].partitions = 5_200;
        let shape = |s: &Scenario| Rc::new(Scenario { previous: None, ..s.clone() });
        let settled = |s: &Scenario| Report::new(s).settled(s);
        let edits = [
            vec![Edit::AddConsumer],
            vec![Edit::SetPartitions { topic: 0, partitions: 5_199 }, Edit::AddConsumer],
            vec![Edit::SetGroupProtocol { consumer: true }],
            vec![Edit::AddConsumer],
            vec![Edit::SetGroupProtocol { consumer: false }, Edit::Leave { consumer: 0 }],
            vec![Edit::Leave { consumer: 1 }],
        ];
        let mut one = Engine::default();
        let mut two = [Engine::new(Share::Lead), Engine::new(Share::Help)];
        let job = Job { version: 1, prior: Prior::Inline, scenario: Rc::new(first.clone()) };
        let alone = one.compute(vec![job.clone()], &[]);
        let mut split = Split::default();
        let (together, _) = fleet_compute(&mut two, &mut split, vec![job], &[], false);
        assert_eq!(Some(together), alone);
        let (mut scenario, mut version) = (first, 1);
        let mut generations_differed = false;
        for (step, chain) in edits.iter().enumerate() {
            let mut jobs = Vec::new();
            for edit in chain {
                let next = edit.apply(&settled(&scenario)).unwrap_or_else(|e| panic!("{e}"));
                jobs.push(Job { version: version + 1, prior: Prior::Settled(version), scenario: shape(&next) });
                (scenario, version) = (next, version + 1);
            }
            let keep = [version - chain.len() as Version];
            let alone = one.compute(jobs.clone(), &keep).unwrap_or_else(|| panic!("no answer"));
            let (together, generations) = fleet_compute(&mut two, &mut split, jobs, &keep, step % 2 == 1);
            assert!(!alone.prior_lost);
            assert_eq!(together, alone, "step {step}");
            assert!(together.settled.is_none() && together.computed.summarised());
            assert_eq!(generations.len(), chain.len(), "one version at a time");
            generations_differed |= generations.iter().any(|[a, b]| a != b);
            // The history a big group's link is written with: the lead's share and the helper's.
            let parts: Vec<PartText> = two[1].part(version - 1).into_iter().collect();
            assert_eq!(two[0].whole_with(version - 1, &scenario, &parts), one.whole(version - 1, &scenario));
            assert_eq!(one.whole(version - 1, &shape(&scenario)).map(|s| s.previous), Some(scenario.previous.clone()));
            // A member opened in each panel, of the worker computing it.
            let panels =
                StrategyId::ALL.iter().filter(|p| scenario.consumer_protocol() || matches!(p, StrategyId::Classic(_)));
            for &panel in panels {
                let request = MemberRequest { panel, member: scenario.consumers[0].id.clone() };
                let worker = Share::answering(&[Share::Lead, Share::Help], panel);
                let detail = two[worker].member(version, &request, None);
                assert!(detail.as_ref().is_ok_and(Option::is_some), "step {step}, {panel}");
                assert_eq!(detail, one.member(version, &request, None), "step {step}, {panel}");
            }
        }
        assert!(generations_differed, "a cooperative rebalance took a round more than the eager ones");
    }

    /// The page's gathering: a version's parts make its answer whichever comes first; a part of
    /// another version (an answer the page no longer waits for) is dropped, and so is a worker's
    /// part sent twice.
    #[test]
    fn the_parts_of_a_version_make_its_answer_in_either_order_and_a_stale_part_is_dropped() {
        let scenario = preset("cooperative-upgrade");
        let job = |version| Job { version, prior: Prior::Inline, scenario: Rc::new(scenario.clone()) };
        let part = |share, version| Engine::new(share).compute(vec![job(version)], &[]).unwrap_or_default();
        let whole = Engine::default().compute(vec![job(5)], &[]);
        let mut gather = Gather::default();
        assert_eq!(gather.add(0, part(Share::Lead, 5)), None, "nothing expected");
        gather.expect(5, 2);
        assert_eq!(gather.add(1, part(Share::Help, 4)), None, "stale");
        assert_eq!(gather.add(1, part(Share::Help, 5)), None);
        assert_eq!(gather.add(1, part(Share::Help, 5)), None, "twice");
        assert_eq!(gather.add(0, part(Share::Lead, 5)), whole);
        assert_eq!(gather.add(0, part(Share::Lead, 5)), None, "answered already");
        gather.expect(5, 2);
        assert_eq!(gather.add(0, part(Share::Lead, 5)), None);
        assert_eq!(gather.add(1, part(Share::Help, 5)), whole);
        // A newer version sent before a part of the last came: that part is stale.
        gather.expect(6, 2);
        assert_eq!(gather.add(1, part(Share::Help, 5)), None);
        assert_eq!(gather.add(0, part(Share::Lead, 6)), None);
        let six = Engine::default().compute(vec![job(6)], &[]);
        assert_eq!(gather.add(1, part(Share::Help, 6)), six);
    }

    /// Several workers get one version at a time: the versions a job builds on go first, each only
    /// settled, and an undo to the version being settled has it computed and answered next.
    #[test]
    fn several_workers_get_one_version_at_a_time() {
        let mut queue = Queue::serial();
        assert_eq!(versions(&queue.push(vec![job(1, Prior::Inline)])), None, "loading");
        assert_eq!(versions(&queue.done()), Some(vec![1]));
        assert!(queue.answering());
        queue.push(vec![job(2, Prior::Settled(1)), job(3, Prior::Settled(2)), job(4, Prior::Settled(3))]);
        assert_eq!(versions(&queue.done()), Some(vec![2]));
        assert!(!queue.answering());
        assert_eq!(versions(&queue.done()), Some(vec![3]));
        assert!(!queue.answering());
        // Undo back to version 3, being settled: it is computed and answered next.
        assert_eq!(versions(&queue.push(vec![job(2, Prior::Settled(1)), job(3, Prior::Settled(2))])), None);
        assert_eq!(versions(&queue.done()), Some(vec![2]));
        assert_eq!(versions(&queue.done()), Some(vec![3]));
        assert!(queue.answering());
        assert_eq!(versions(&queue.done()), None);
        // One worker still gets the whole chain at once.
        let mut one = Queue::default();
        assert_eq!(versions(&one.push(vec![job(2, Prior::Settled(1)), job(3, Prior::Settled(2))])), Some(vec![2, 3]));
        assert!(one.answering());
    }

    /// What a worker settled crosses to the writing worker as runs and reads back the same.
    #[test]
    fn a_settled_part_crosses_as_runs_and_reads_back_the_same() {
        let mut scenario = preset("range-two-topics");
        scenario.topics[0].partitions = 700;
        let settled = Report::new(&scenario).settled(&scenario).previous.unwrap_or_default();
        let part = SettledPart::of(&settled, &[]).unwrap_or_else(|| panic!("not written"));
        assert_eq!(part.read(), Some(settled.clone()));
        let text = to_message(&part).unwrap_or_default();
        assert!(text.len() * 10 < to_message(&settled).unwrap_or_default().len(), "{} bytes", text.len());
        assert_eq!(from_message::<SettledPart>(&text).ok().and_then(|p| p.read()), Some(settled));
    }

    /// What crosses as JSON text comes back as it was: a job holding a previous assignment, and an
    /// answer with its chips and its settled assignment.
    #[test]
    fn messages_cross_as_bytes_unchanged() {
        let first = preset("range-imbalance");
        let settled = Report::new(&first).settled(&first);
        let job = Job { version: 2, prior: Prior::Inline, scenario: Rc::new(settled) };
        assert!(job.scenario.previous.is_some());
        let request = Request::Compute { jobs: vec![job.clone()], keep: vec![1, 2], history: None };
        let bytes = request.encode().unwrap_or_default();
        match Request::decode(&bytes) {
            Ok(Request::Compute { jobs, keep, history: None }) => {
                assert_eq!((jobs, keep), (vec![job.clone()], vec![1, 2]))
            }
            other => panic!("{other:?}"),
        }
        let answer = Engine::default().compute(vec![job], &[]).unwrap_or_else(|| panic!("no answer"));
        assert!(
            answer.settled.is_some()
                && answer.computed.panels.iter().any(|p| p.outcome.as_ref().is_ok_and(|o| o.chips))
        );
        let bytes = Reply::Answer(Box::new(answer.clone())).encode().unwrap_or_default();
        match Reply::decode(&bytes) {
            Ok(Reply::Answer(back)) => assert_eq!(*back, answer),
            other => panic!("{other:?}"),
        }
    }

    /// Every kind of answer crosses as bytes and reads back as it was: a consumer-protocol group's
    /// (server panels with their lanes, what moving changes) and a summarised group's, with an
    /// opened member and a written scenario.
    #[test]
    fn replies_cross_as_bytes_unchanged() {
        let mut big = preset("range-imbalance");
        big.topics[0].partitions = 3_000;
        let mut engine = Engine::default();
        let mut replies = Vec::new();
        for (version, scenario) in [(1, preset("consumer-protocol-uniform")), (2, big)] {
            let job = Job { version, prior: Prior::Inline, scenario: Rc::new(scenario.clone()) };
            let answer = engine.compute(vec![job], &[]).unwrap_or_else(|| panic!("no answer"));
            replies.push(Reply::Answer(Box::new(answer)));
            replies.push(Reply::Written { ticket: version, texts: engine.write(Prior::Inline, &scenario) });
        }
        assert!(matches!(&replies[0], Reply::Answer(a) if a.computed.consumer.is_some()));
        assert!(matches!(&replies[2], Reply::Answer(a) if a.computed.summarised()));
        let request = MemberRequest { panel: StrategyId::Classic(Strategy::Range), member: "C1".into() };
        let detail = engine.member(2, &request, None).ok().flatten();
        assert!(detail.as_ref().is_some_and(|d| !d.chips.is_empty()));
        replies.push(Reply::Member { version: 2, request, detail, current: true });
        replies.push(Reply::Part { ticket: 3, part: engine.part(2) });
        replies.push(Reply::Unreadable("why".into()));
        // A previous assignment with members' own generations, as a snapshot can have.
        let owned: Owned = BTreeMap::from([("C0".to_string(), vec![("t".to_string(), 0)])]);
        let previous = Previous {
            generation: 3,
            generations: BTreeMap::from([("C0".to_string(), Some(2)), ("C1".to_string(), None)]),
            assignments: BTreeMap::from([("range".to_string(), std::sync::Arc::new(owned))]),
            deleted_topic_ids: BTreeMap::from([("gone".to_string(), "eZUeEuqvSSGGPuIabmBwqg".to_string())]),
        };
        let answer =
            Answer { version: 9, previous: Some(previous.clone()), settled: Some(previous), ..Answer::default() };
        replies.push(Reply::Answer(Box::new(answer)));
        for reply in replies {
            let bytes = reply.encode().unwrap_or_default();
            // `Reply` has no `PartialEq` (a walk's `Result`, boxed answers): compared as written.
            let back = Reply::decode(&bytes).map(|r| format!("{r:?}"));
            assert_eq!(back.as_deref(), Ok(format!("{reply:?}").as_str()));
        }
    }

    /// A summarised group's opened member is answered from the last version's report; a member of
    /// an earlier version is not (the page asks again for the version on screen).
    #[test]
    fn an_opened_member_comes_from_the_last_version_computed() {
        let mut big = preset("range-imbalance");
        big.topics[0].partitions = 3_000;
        let mut engine = Engine::default();
        let job = |version| Job { version, prior: Prior::Inline, scenario: Rc::new(big.clone()) };
        let answer = engine.compute(vec![job(1)], &[]).unwrap_or_else(|| panic!("no answer"));
        assert!(answer.computed.summarised());
        let request = MemberRequest { panel: StrategyId::Classic(Strategy::Sticky), member: "C1".into() };
        let expected = member_detail(&Report::new(&big), &big, &request);
        assert!(expected.as_ref().is_some_and(|d| !d.chips.is_empty()));
        assert_eq!(engine.member(1, &request, None), Ok(expected.clone()));
        let nobody = MemberRequest { panel: StrategyId::Classic(Strategy::Sticky), member: "C9".into() };
        assert_eq!(engine.member(1, &nobody, None), Ok(None));
        engine.compute(vec![job(2)], &[]);
        assert_eq!(engine.member(1, &request, None), Err(()));
        // Undo painted version 1 again: given its job, the worker computes its report anew.
        assert_eq!(engine.member(1, &request, Some(job(1))), Ok(expected));
        assert_eq!(engine.member(2, &request, Some(job(1))), Err(()));
    }

    /// After an undo, a big group's opened member is computed from the version's own previous
    /// assignment, which the worker keeps: the same partitions the report of the whole scenario
    /// gives, history included.
    #[test]
    fn an_undone_version_is_computed_again_from_its_prior() {
        use scenario::edit::Edit;
        let mut first = preset("range-imbalance");
        first.topics[0].partitions = 6_000;
        let settled = Report::new(&first).settled(&first);
        let joined = Edit::AddConsumer.apply(&settled).unwrap_or_default();
        let shape = |s: &Scenario| Rc::new(Scenario { previous: None, ..s.clone() });
        let one = Job { version: 1, prior: Prior::Inline, scenario: Rc::new(first.clone()) };
        let two = Job { version: 2, prior: Prior::Settled(1), scenario: shape(&joined) };
        let three = Job { version: 3, prior: Prior::Settled(2), scenario: shape(&joined) };
        let mut engine = Engine::default();
        engine.compute(vec![one], &[]);
        engine.compute(vec![two.clone()], &[1]);
        engine.compute(vec![three], &[1, 2]);
        let request = MemberRequest { panel: StrategyId::Classic(Strategy::Sticky), member: "C1".into() };
        let expected = member_detail(&Report::new(&joined), &joined, &request);
        // C1 gives partitions to the newcomer: its chips say which, from version 1's assignment.
        let kept = scenario::digest::ChipKind::Kept;
        assert!(expected.as_ref().is_some_and(|d| d.chips.iter().any(|c| c.kind != kept)));
        assert_eq!(engine.member(2, &request, Some(two.clone())), Ok(expected));
        // Its prior no longer kept: not answered rather than answered as a fresh group.
        engine.compute(vec![Job { version: 4, prior: Prior::Inline, scenario: Rc::new(first) }], &[4]);
        assert_eq!(engine.member(2, &request, Some(two)), Err(()));
    }

    fn walk_request(version: Version, strategy: &str, step: usize) -> WalkRequest {
        let strategy = strategy.parse().unwrap_or_else(|e| panic!("{e}"));
        WalkRequest { version, strategy, step }
    }

    /// The worker's steps are the walkthrough's: each one's sentence, highlights, orders and the
    /// lists so far, ending on the strategy's assignment.
    #[test]
    fn a_walkthrough_step_is_the_recorded_walk_at_that_step() {
        let uneven = preset("roundrobin-uneven");
        let model = scenario::Model::new(&uneven).unwrap_or_else(|p| panic!("{p:?}"));
        let walkthrough = Walkthrough::new(&model, assignor::Strategy::RoundRobin).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(walkthrough.steps.len(), 14);
        let mut engine = Engine::default();
        for (i, recorded) in walkthrough.steps.iter().enumerate() {
            let frame = engine.walk(&walk_request(1, "roundrobin", i), &uneven).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((frame.step, frame.count), (i, 14));
            assert_eq!(frame.sentence, recorded.step.to_string());
            let (partition, members) = recorded.step.focus();
            assert_eq!(frame.focus_partition, partition.map(ToString::to_string));
            assert_eq!(frame.focus_members, members);
            let lists: Vec<(String, Vec<String>)> = (walkthrough.lists_after(i + 1).into_iter())
                .map(|(m, l)| (m, l.iter().map(ToString::to_string).collect()))
                .collect();
            assert_eq!(frame.lists, lists);
            let orders: Vec<(String, String)> =
                walkthrough.orders_after(i + 1).iter().map(|(n, items)| (n.to_string(), items.join(", "))).collect();
            assert_eq!(frame.orders, orders);
        }
        assert_eq!(
            engine.walk(&walk_request(1, "roundrobin", 4), &uneven).map(|f| f.sentence),
            Ok("Give t1-1 to C2.".into())
        );
        // Past the end: the last step, whose lists are the panel's assignment.
        let last = engine.walk(&walk_request(1, "roundrobin", 99), &uneven).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(last.step, 13);
        let owned = |m: &str| last.lists.iter().find(|(n, _)| n == m).map(|(_, l)| l.join(" "));
        assert_eq!(owned("C2").as_deref(), Some("t1-1 t2-0 t2-1 t2-2"));
        // Another strategy of the same version is walked anew.
        let range = engine.walk(&walk_request(1, "range", 0), &uneven).unwrap_or_else(|e| panic!("{e}"));
        let range_walk = Walkthrough::new(&model, assignor::Strategy::Range).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(range.count, range_walk.steps.len());
        assert_eq!(range.sentence, range_walk.steps[0].step.to_string());
    }

    /// A server-side assignor's walk crosses the same way: its steps are the recorded walk's.
    #[test]
    fn a_server_side_assignor_is_walked_too() {
        let uniform = preset("consumer-protocol-uniform");
        let model = scenario::Model::new(&uniform).unwrap_or_else(|p| panic!("{p:?}"));
        let id = StrategyId::Server(assignor::consumer_group::ServerAssignor::Uniform);
        let walkthrough = Walkthrough::new(&model, id).unwrap_or_else(|e| panic!("{e}"));
        let mut engine = Engine::default();
        let last = walkthrough.steps.len() - 1;
        let frame = engine.walk(&walk_request(1, "uniform", last), &uniform).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((frame.step, frame.count), (last, walkthrough.steps.len()));
        assert_eq!(frame.sentence, walkthrough.steps[last].step.to_string());
        let held: usize = frame.lists.iter().map(|(_, list)| list.len()).sum();
        assert_eq!(held, walkthrough.lists_after(last + 1).values().map(Vec::len).sum::<usize>());
        assert!(held > 0);
    }

    /// What has no walkthrough says why: a group too big to step through, an invalid scenario; an
    /// unknown strategy's name does not cross.
    #[test]
    fn a_walkthrough_refused_says_why() {
        let mut engine = Engine::default();
        let uneven = preset("roundrobin-uneven");
        let asked = Request::Walk { request: walk_request(1, "sticky", 0), scenario: Rc::new(uneven.clone()) };
        let bytes = asked.encode().unwrap_or_default();
        assert!(Request::decode(&bytes).is_ok());
        let at = bytes.windows(7).position(|w| w == b"\x06sticky").unwrap_or_else(|| panic!("no strategy"));
        let mut unknown = bytes.clone();
        unknown[at + 1..at + 7].copy_from_slice(b"sloppy");
        assert!(Request::decode(&unknown).is_err());
        let mut big = uneven.clone();
        big.topics[0].partitions = 501;
        let refused = engine.walk(&walk_request(2, "range", 0), &big);
        assert_eq!(
            refused,
            Err("The walkthrough is offered for groups of at most 500 partitions and 200 consumers.".into())
        );
        let mut invalid = uneven.clone();
        invalid.consumers[1].id = invalid.consumers[0].id.clone();
        let problem = scenario::Model::new(&invalid).err().and_then(|p| p.first().map(ToString::to_string));
        assert!(problem.is_some());
        assert_eq!(engine.walk(&walk_request(3, "range", 0), &invalid).err(), problem);
    }

    /// A walk's request and answer cross whole: the answer names the request it answers (the page
    /// matches them), the scenario stays on the page's side of the answer.
    #[test]
    fn a_walk_request_and_its_step_cross_whole() {
        let uneven = Rc::new(preset("roundrobin-uneven"));
        let request = walk_request(7, "cooperative-sticky", 2);
        let message = Request::Walk { request: request.clone(), scenario: Rc::clone(&uneven) };
        let bytes = message.encode().unwrap_or_default();
        let Ok(Request::Walk { request: read, scenario }) = Request::decode(&bytes) else { panic!("{message:?}") };
        assert_eq!((read, scenario), (request.clone(), uneven.clone()));
        let frame = Engine::default().walk(&request, &uneven);
        assert!(frame.as_ref().is_ok_and(|f| f.step == 2 && !f.lists.is_empty()));
        let reply = Reply::Walk { request: request.clone(), frame: frame.clone() };
        let bytes = reply.encode().unwrap_or_default();
        assert!(!bytes.windows(5).any(|w| w == b"notes"), "the scenario stays on the page");
        let Ok(Reply::Walk { request: answered, frame: read }) = Reply::decode(&bytes) else { panic!("{reply:?}") };
        assert_eq!((answered, read), (request, frame));
    }

    /// A paste is read in the worker as `kap import` reads it (the subscriptions inferred by
    /// running the group's strategy), and its reading crosses back whole, unread lines included.
    #[test]
    fn a_paste_is_read_as_kap_import_reads_it_and_its_reading_crosses_whole() {
        let text = "\
GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID
g1     t0     0          10              12              2    c1           /h1   app
g1     t0     1          7               7               0    c2           /h2   app
g2     u      0          1               1               0    d1           /h3   app
this is no row";
        let request = ImportRequest { text: text.to_string(), group: Some("g2".to_string()), lag: true };
        let reading = request.read();
        let expected = import::read(text).scenario(&Options { group: Some("g2".into()), weights: WeightSource::Lag });
        assert_eq!(reading.outcome, expected.map_err(|e| e.to_string()));
        assert_eq!(reading.groups, ["g1", "g2"]);
        assert_eq!(reading.unread.iter().map(|u| u.line.0).collect::<Vec<_>>(), [5]);
        let imported = reading.outcome.as_ref().map(|i| (i.group.as_str(), i.scenario.consumers.len()));
        assert_eq!(imported, Ok(("g2", 1)));

        let reply = Reply::Imported { ticket: 4, reading: Box::new(reading.clone()) };
        let bytes = reply.encode().unwrap_or_default();
        let Ok(Reply::Imported { ticket, reading: read }) = Reply::decode(&bytes) else { panic!("{reply:?}") };
        assert_eq!((ticket, *read), (4, reading));

        let missing = ImportRequest { group: Some("g3".to_string()), ..request }.read();
        assert!(missing.outcome.as_ref().is_err_and(|e| e.contains("g3")), "{:?}", missing.outcome);
    }
}
