//! The user's work in this browser, never lost: the scenario worked on and a small history of the
//! scenarios worked on before (their own edits and every link opened), so that opening a link,
//! loading a preset or another tab's edits never destroy anything, and saved work this version
//! cannot read stays exactly as it is.
//!
//! Plain functions over plain data: what storage holds comes in through a reader, what to write
//! goes out as a list of [`Write`]s; `browser.rs` reads and writes, `ui/saved.rs` shows the outcome.
//! They run in the compute worker (`work::Request::Open`, `work::Request::Plan`), which reads the
//! saved JSON, so that the page links no reader of scenario files (issue 9); the page hands it
//! what storage holds ([`Stored`]) and gets the opening or the writes back.
//!
//! Storage (`localStorage`, this site's only):
//! - [`WORK_KEY`]: the scenario worked on last, as its JSON file (what earlier versions saved);
//! - [`INDEX_KEY`]: which entry that is, and the kept entries, most recently left first;
//! - [`KEPT_PREFIX`] + id: each kept scenario's JSON, exactly as it was saved.
//!
//! Before the work is written over, what it replaces is kept, unless it is this tab's own last
//! save; what this version cannot read is never written over: the work is saved beside it. The
//! kept scenarios stay within [`MAX_KEPT`] entries and [`HISTORY_BUDGET`] bytes, the longest kept
//! dropped first; the one kept last stays whatever its size.

use std::fmt;

use scenario::Scenario;
use serde::{Deserialize, Serialize};

pub const WORK_KEY: &str = "kafka-assignor-playground/scenario";
pub const INDEX_KEY: &str = "kafka-assignor-playground/history";
pub const KEPT_PREFIX: &str = "kafka-assignor-playground/kept/";
/// The most scenarios kept besides the work.
pub const MAX_KEPT: usize = 20;
/// The most bytes (of JSON, UTF-8) the kept scenarios take together: browsers give a site about
/// 5 MB, which the work and other pages of the site share.
pub const HISTORY_BUDGET: usize = 2_000_000;
/// The index format this version writes and reads.
const INDEX_VERSION: u32 = 1;

/// How a scenario came to be worked on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A preset, a file or the person's own edits.
    Own,
    /// A share link.
    Link,
}

/// One scenario of the history, without its JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub title: String,
    pub origin: Origin,
    /// When it was opened or started, in milliseconds since the epoch.
    pub opened: f64,
    /// When it was last saved.
    pub saved: f64,
    /// Its JSON's size in bytes.
    pub size: usize,
    /// A hash of its JSON, to recognise it.
    pub hash: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    pub version: u32,
    /// The entry [`WORK_KEY`] holds; none when unknown (saved by an earlier version) or unreadable.
    #[serde(default)]
    pub work: Option<Entry>,
    /// The kept entries, the most recently left first.
    #[serde(default)]
    pub kept: Vec<Entry>,
}

impl Default for Index {
    fn default() -> Self {
        Index { version: INDEX_VERSION, work: None, kept: Vec::new() }
    }
}

/// A scenario and its entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    pub entry: Entry,
    #[serde(with = "scenario::packed")]
    pub scenario: Scenario,
}

/// Saved work this version cannot read, exactly as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unreadable {
    pub text: String,
    pub why: String,
}

/// One tab's side of the history: the entry it works on and what it last wrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub id: String,
    pub origin: Origin,
    pub opened: f64,
    /// The hash of what [`WORK_KEY`] held when this tab last wrote or opened it.
    pub last_written: Option<String>,
}

impl Session {
    pub fn new(id: String, origin: Origin, now: f64) -> Session {
        Session { id, origin, opened: now, last_written: None }
    }

    /// Works on `entry` from now on; the next save keeps what this tab worked on until now.
    pub fn switch_to(&mut self, entry: &Entry) {
        self.id = entry.id.clone();
        self.origin = entry.origin;
        self.opened = entry.opened;
    }

    fn adopting(entry: &Entry, in_work: bool) -> Session {
        Session {
            id: entry.id.clone(),
            origin: entry.origin,
            opened: entry.opened,
            last_written: in_work.then(|| entry.hash.clone()),
        }
    }
}

/// Why the work was not saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unsaved {
    /// The page may not use storage at all (site data blocked, storage switched off).
    Unavailable,
    /// The browser has no room for it (`QuotaExceededError`): the site's storage is full, or a
    /// private window gives it little.
    Full { needed: usize },
    /// Another refusal, as the browser named it.
    Refused(String),
    /// The history was written by a newer version: it is left as it is, and nothing is written.
    UnreadableHistory(String),
    /// A big group's scenario could not be written whole (its previous assignment is the compute
    /// worker's): rather than saved without it, the work stays as last saved.
    NotWritten(String),
}

impl fmt::Display for Unsaved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsaved::Unavailable => {
                write!(f, "this browser does not let the page store anything (site data blocked or storage turned off)")
            }
            Unsaved::Full { needed } => write!(
                f,
                "this browser's storage for this site is full (the scenario needs {}; browsers keep about 5 MB per \
                 site, less in private windows)",
                megabytes(*needed)
            ),
            Unsaved::Refused(why) => write!(f, "the browser refused to store it ({why})"),
            Unsaved::NotWritten(why) => write!(f, "it cannot be written whole: {why}"),
            Unsaved::UnreadableHistory(why) => write!(
                f,
                "the history of scenarios in this browser was written by a newer version ({why}) and is left as it is"
            ),
        }
    }
}

fn megabytes(bytes: usize) -> String {
    if bytes < 100_000 {
        format!("{} kB", bytes.div_ceil(1000))
    } else {
        // In tenths of a megabyte, rounded half up: no float formatting on the page (issue 9).
        let tenths = (bytes + 50_000) / 100_000;
        format!("{}.{} MB", tenths / 10, tenths % 10)
    }
}

/// One storage write; a plan's writes run in order and stop at the first that fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Write {
    Set { key: String, value: String },
    Remove { key: String },
}

/// FNV-1a: enough to tell one saved text from another, no dependency.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

pub fn kept_key(id: &str) -> String {
    format!("{KEPT_PREFIX}{id}")
}

/// The title shown for a scenario: its own, or what it holds.
pub fn title_of(scenario: &Scenario) -> String {
    if scenario.title.trim().is_empty() {
        format!("Untitled: {} topics, {} consumers", scenario.topics.len(), scenario.consumers.len())
    } else {
        scenario.title.clone()
    }
}

/// The scenario a saved text holds, if this version can open it, or why not.
pub fn read_scenario(text: &str) -> Result<Scenario, String> {
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        return Err(if e.is_eof() { format!("it was cut short ({e})") } else { format!("it is not JSON ({e})") });
    }
    let scenario = scenario::parse_scenario(text).map_err(|e| e.to_string())?;
    match scenario::validate::errors(&scenario).first() {
        Some(problem) => Err(format!("it cannot run: {problem}")),
        None => Ok(scenario),
    }
}

/// The index as stored, or why this version cannot read it.
pub fn read_index(text: &str) -> Result<Index, String> {
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    let versioned: Versioned = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if versioned.version > INDEX_VERSION {
        return Err(format!("format {}; this one reads up to {INDEX_VERSION}", versioned.version));
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The entry of the work stored under [`WORK_KEY`] with hash `work_hash`: the index's, if it
/// describes this very text, else one made up for it (saved by an earlier version, or by a tab
/// whose index write failed), named by its hash so that every tab names it alike.
fn work_entry(index: &Index, work_hash: &str, scenario: Option<&Scenario>, size: usize, now: f64) -> Entry {
    match &index.work {
        Some(entry) if entry.hash == work_hash => entry.clone(),
        _ => Entry {
            id: format!("w{work_hash}"),
            title: scenario.map(title_of).unwrap_or_default(),
            origin: Origin::Own,
            opened: now,
            saved: now,
            size,
            hash: work_hash.to_string(),
        },
    }
}

/// What a tab opens on, and what it tells the person.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    #[serde(with = "scenario::packed")]
    pub scenario: Scenario,
    pub session: Session,
    /// The saved work a link was opened over: kept, one click away.
    pub previous: Option<Kept>,
    /// Saved work this version cannot read: kept as it is, offered as a file.
    pub unreadable: Option<Unreadable>,
    /// Whether the saved work (or, without it, the newest kept scenario) is what opened.
    pub opened_saved: bool,
    /// The kept entries, the most recently left first.
    pub kept: Vec<Entry>,
}

/// Opens a tab: the link's scenario if there is a good one (`link`), else the saved work, else the
/// most recently kept scenario, else `fallback`. `fresh_id` names a new entry.
pub fn open(
    read: &dyn Fn(&str) -> Option<String>,
    link: Option<Scenario>,
    fresh_id: String,
    now: f64,
    fallback: impl FnOnce() -> Scenario,
) -> Opening {
    // An unreadable index only stops saving (see `plan_save`); opening goes on without it.
    let index = read(INDEX_KEY).and_then(|text| read_index(&text).ok()).unwrap_or_default();
    let (work, unreadable) = match read(WORK_KEY) {
        None => (None, None),
        Some(text) => match read_scenario(&text) {
            Ok(scenario) => {
                let entry = work_entry(&index, &hash(&text), Some(&scenario), text.len(), now);
                (Some(Kept { entry, scenario }), None)
            }
            Err(why) => (None, Some(Unreadable { text, why })),
        },
    };
    let kept = index.kept.clone();
    let opening = |scenario, session, previous, opened_saved| Opening {
        scenario,
        session,
        previous,
        unreadable: unreadable.clone(),
        opened_saved,
        kept: kept.clone(),
    };
    // Without readable work (none, or unreadable), the newest kept scenario stands in for it.
    let newest_kept = || {
        index.kept.iter().find_map(|entry| {
            let scenario = read(&kept_key(&entry.id)).and_then(|text| read_scenario(&text).ok())?;
            Some((entry, scenario))
        })
    };
    match (link, work) {
        // The page reloaded on its own link: the same work.
        (Some(linked), Some(work)) if linked == work.scenario => {
            opening(linked, Session::adopting(&work.entry, true), None, true)
        }
        (Some(linked), None) => match newest_kept() {
            Some((entry, scenario)) if scenario == linked => {
                opening(linked, Session::adopting(entry, false), None, true)
            }
            _ => opening(linked, Session::new(fresh_id, Origin::Link, now), None, false),
        },
        (Some(linked), work) => opening(linked, Session::new(fresh_id, Origin::Link, now), work, false),
        (None, Some(work)) => opening(work.scenario, Session::adopting(&work.entry, true), None, true),
        (None, None) => match newest_kept() {
            Some((entry, scenario)) => opening(scenario, Session::adopting(entry, false), None, true),
            None => opening(fallback(), Session::new(fresh_id, Origin::Own, now), None, false),
        },
    }
}

/// The writes that save `scenario` (as `json`) for `session`, and what storage holds after them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub writes: Vec<Write>,
    /// The position in `writes` of the work's own write (none: saved beside unreadable work).
    pub work_write: Option<usize>,
    /// The session once the writes ran (its id changes if another tab saved the same entry).
    pub session: Session,
    pub index: Index,
}

/// Plans a save of a scenario titled `title` ([`title_of`]), written as `json`. `fresh_id` names
/// this tab's entry anew if another tab wrote the same one since.
pub fn plan_save(
    read: &dyn Fn(&str) -> Option<String>,
    session: &Session,
    title: &str,
    json: &str,
    now: f64,
    fresh_id: String,
) -> Result<Plan, Unsaved> {
    let mut index = match read(INDEX_KEY) {
        Some(text) => read_index(&text).map_err(Unsaved::UnreadableHistory)?,
        None => Index::default(),
    };
    let mut session = session.clone();
    let my_hash = hash(json);
    let mut keep: Option<(Entry, String)> = None;
    let mut blocked = false;
    if let Some(stored) = read(WORK_KEY) {
        let stored_hash = hash(&stored);
        let stored_id = work_entry(&index, &stored_hash, None, stored.len(), now).id;
        let own_last_save = stored_id == session.id && session.last_written.as_deref() == Some(stored_hash.as_str());
        if stored_hash != my_hash && !own_last_save {
            match read_scenario(&stored) {
                Ok(theirs) => {
                    if stored_id == session.id {
                        // Another tab saved this same entry since: both go on, as two entries.
                        session.id = fresh_id;
                    }
                    let entry = work_entry(&index, &stored_hash, Some(&theirs), stored.len(), now);
                    keep = Some((entry, stored));
                }
                Err(_) => blocked = true,
            }
        }
    }
    let mine = Entry {
        id: session.id.clone(),
        title: title.to_string(),
        origin: session.origin,
        opened: session.opened,
        saved: now,
        size: json.len(),
        hash: my_hash.clone(),
    };
    let mut writes = Vec::new();
    let mut stale = Vec::new();
    // This tab's entry is not kept besides itself, nor is the same text twice.
    index.kept.retain(|e| {
        let same = e.id == mine.id || e.hash == mine.hash;
        if same {
            stale.push(e.id.clone());
        }
        !same
    });
    if let Some((entry, text)) = keep {
        index.kept.retain(|e| e.id != entry.id && e.hash != entry.hash);
        writes.push(Write::Set { key: kept_key(&entry.id), value: text });
        stale.retain(|id| *id != entry.id);
        index.kept.insert(0, entry);
    }
    let work_write = if blocked {
        // Never written over: the work is saved beside it, as a kept scenario.
        stale.retain(|id| *id != mine.id);
        writes.push(Write::Set { key: kept_key(&mine.id), value: json.to_string() });
        index.kept.insert(0, mine);
        index.work = None;
        None
    } else {
        writes.push(Write::Set { key: WORK_KEY.to_string(), value: json.to_string() });
        index.work = Some(mine);
        Some(writes.len() - 1)
    };
    stale.extend(within_budget(&mut index.kept).into_iter().map(|e| e.id));
    index.version = INDEX_VERSION;
    writes.push(Write::Set { key: INDEX_KEY.to_string(), value: serde_json::to_string(&index).unwrap_or_default() });
    // Old copies go last: until the new ones are written, they are all there is.
    writes.extend(stale.into_iter().map(|id| Write::Remove { key: kept_key(&id) }));
    if work_write.is_some() {
        session.last_written = Some(my_hash);
    }
    Ok(Plan { writes, work_write, session, index })
}

/// Drops the longest kept entries beyond [`MAX_KEPT`] or [`HISTORY_BUDGET`]; the first (the one
/// kept last) stays whatever its size. Returns the dropped.
fn within_budget(kept: &mut Vec<Entry>) -> Vec<Entry> {
    let mut total = 0;
    let mut keep = 0;
    for (i, entry) in kept.iter().enumerate() {
        total += entry.size;
        if i > 0 && (i >= MAX_KEPT || total > HISTORY_BUDGET) {
            break;
        }
        keep = i + 1;
    }
    kept.split_off(keep)
}

/// What this site's storage holds, as the page read it: the playground's keys and their texts,
/// for the worker to open or plan a save from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stored(pub Vec<(String, String)>);

impl Stored {
    /// The text stored under `key`.
    pub fn read(&self, key: &str) -> Option<String> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, text)| text.clone())
    }

    /// The keys stored.
    pub fn keys(&self) -> Vec<String> {
        self.0.iter().map(|(key, _)| key.clone()).collect()
    }
}

/// Whether `key` is one of the playground's (the work, the index, a kept scenario).
pub fn is_ours(key: &str) -> bool {
    key == WORK_KEY || key == INDEX_KEY || key.starts_with(KEPT_PREFIX)
}

/// Keys under [`KEPT_PREFIX`] that the index does not list (left by a save cut short).
pub fn orphans(index: &Index, keys: &[String]) -> Vec<String> {
    keys.iter()
        .filter(|key| {
            key.strip_prefix(KEPT_PREFIX).is_some_and(|id| {
                !index.kept.iter().any(|e| e.id == id) && index.work.as_ref().is_none_or(|w| w.id != id)
            })
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::collections::BTreeMap;

    use super::*;

    /// A browser's storage: keys to texts, with a quota in bytes.
    #[derive(Default)]
    struct Storage {
        items: RefCell<BTreeMap<String, String>>,
        quota: Cell<Option<usize>>,
    }

    impl Storage {
        fn read(&self) -> impl Fn(&str) -> Option<String> + '_ {
            |key| self.items.borrow().get(key).cloned()
        }

        fn used(&self) -> usize {
            self.items.borrow().iter().map(|(k, v)| k.len() + v.len()).sum()
        }

        /// Runs the writes in order, stopping at the first refused; how many ran.
        fn run(&self, writes: &[Write]) -> usize {
            for (done, write) in writes.iter().enumerate() {
                match write {
                    Write::Set { key, value } => {
                        let old = self.items.borrow().get(key).map_or(0, |v| key.len() + v.len());
                        if self.quota.get().is_some_and(|q| self.used() - old + key.len() + value.len() > q) {
                            return done;
                        }
                        self.items.borrow_mut().insert(key.clone(), value.clone());
                    }
                    Write::Remove { key } => {
                        self.items.borrow_mut().remove(key);
                    }
                }
            }
            writes.len()
        }

        fn get(&self, key: &str) -> Option<String> {
            self.items.borrow().get(key).cloned()
        }

        fn kept_titles(&self) -> Vec<String> {
            self.get(INDEX_KEY)
                .map(|t| read_index(&t).unwrap().kept.into_iter().map(|e| e.title).collect())
                .unwrap_or_default()
        }
    }

    /// A tab: its session and what it shows.
    struct Tab<'a> {
        storage: &'a Storage,
        session: Session,
        scenario: Scenario,
        ids: usize,
    }

    impl<'a> Tab<'a> {
        fn open(storage: &'a Storage, link: Option<Scenario>, name: &str) -> (Tab<'a>, Opening) {
            let opening = open(&storage.read(), link, format!("{name}-0"), 1.0, || scenario("first preset", 5));
            let tab = Tab { storage, session: opening.session.clone(), scenario: opening.scenario.clone(), ids: 0 };
            (tab, opening)
        }

        fn edit(&mut self, partitions: u32) -> Result<(), Unsaved> {
            self.scenario.topics[0].partitions = partitions;
            self.save()
        }

        fn save(&mut self) -> Result<(), Unsaved> {
            self.ids += 1;
            let json = scenario::to_json(&self.scenario);
            let fresh = format!("{}-fork{}", self.session.id, self.ids);
            let plan = plan_save(&self.storage.read(), &self.session, &title_of(&self.scenario), &json, 2.0, fresh)?;
            let ran = self.storage.run(&plan.writes);
            if plan.work_write.is_some_and(|w| ran > w) {
                self.session = plan.session;
            }
            if ran < plan.writes.len() {
                return Err(Unsaved::Full { needed: json.len() });
            }
            Ok(())
        }
    }

    fn scenario(title: &str, partitions: u32) -> Scenario {
        Scenario {
            title: title.into(),
            topics: vec![scenario::TopicSpec::new("t0", partitions)],
            consumers: vec![scenario::ConsumerSpec::new("C0", &["t0"])],
            ..Scenario::default()
        }
    }

    fn work(storage: &Storage) -> Scenario {
        read_scenario(&storage.get(WORK_KEY).unwrap()).unwrap()
    }

    #[test]
    fn a_link_opened_over_saved_work_keeps_it_one_click_away() {
        let storage = Storage::default();
        let (mut mine, _) = Tab::open(&storage, None, "a");
        mine.scenario.title = "my group".into();
        mine.edit(7).unwrap();

        let (mut linked, opening) = Tab::open(&storage, Some(scenario("from a colleague", 3)), "b");
        assert_eq!(opening.scenario.title, "from a colleague");
        let previous = opening.previous.unwrap();
        assert_eq!(previous.scenario, mine.scenario);
        assert_eq!(previous.entry.title, "my group");
        linked.save().unwrap();
        assert_eq!(work(&storage).title, "from a colleague");
        assert_eq!(storage.kept_titles(), ["my group"]);

        // Switching back: the link's scenario is kept in its turn, the work is mine again.
        linked.session.switch_to(&previous.entry);
        linked.scenario = previous.scenario.clone();
        linked.save().unwrap();
        assert_eq!(work(&storage), mine.scenario);
        assert_eq!(storage.kept_titles(), ["from a colleague"]);
        let kept = read_index(&storage.get(INDEX_KEY).unwrap()).unwrap().kept;
        assert_eq!(kept[0].origin, Origin::Link);
        assert_eq!(read_scenario(&storage.get(&kept_key(&kept[0].id)).unwrap()).unwrap().title, "from a colleague");
        // One copy of each: no stale kept keys.
        assert_eq!(storage.items.borrow().keys().filter(|k| k.starts_with(KEPT_PREFIX)).count(), 1);
    }

    #[test]
    fn a_reload_on_its_own_link_is_the_same_work() {
        let storage = Storage::default();
        let (mut tab, _) = Tab::open(&storage, None, "a");
        tab.edit(9).unwrap();
        let (mut again, opening) = Tab::open(&storage, Some(tab.scenario.clone()), "b");
        assert_eq!(opening.previous, None);
        assert_eq!(again.session.id, tab.session.id);
        again.edit(10).unwrap();
        assert_eq!(storage.kept_titles(), Vec::<String>::new());
    }

    #[test]
    fn work_saved_by_an_earlier_version_is_kept_before_a_link_replaces_it() {
        let storage = Storage::default();
        let earlier = scenario::to_json(&scenario("saved before the history", 4));
        storage.items.borrow_mut().insert(WORK_KEY.into(), earlier.clone());
        let (mut linked, opening) = Tab::open(&storage, Some(scenario("link", 2)), "b");
        let previous = opening.previous.unwrap();
        assert_eq!(previous.entry.title, "saved before the history");
        linked.save().unwrap();
        assert_eq!(storage.get(&kept_key(&previous.entry.id)), Some(earlier));
    }

    #[test]
    fn two_tabs_never_write_over_each_other() {
        let storage = Storage::default();
        let (mut a, _) = Tab::open(&storage, None, "a");
        a.scenario.title = "A".into();
        a.edit(6).unwrap();
        // B opens the same saved work and goes on with it: A's save is where B started.
        let (mut b, _) = Tab::open(&storage, None, "b");
        b.scenario.title = "B".into();
        b.edit(8).unwrap();
        assert_eq!(storage.kept_titles(), Vec::<String>::new());
        // A, still open on its own copy, edits: B's work is kept, and A goes on as a new entry.
        a.edit(9).unwrap();
        assert_eq!(storage.kept_titles(), ["B"]);
        assert_ne!(a.session.id, b.session.id, "A forked its own entry");
        b.edit(8).unwrap();
        assert_eq!(storage.kept_titles(), ["A"]);
        for round in 0..5 {
            a.edit(10 + round).unwrap();
            assert_eq!(storage.kept_titles(), ["B"]);
            b.edit(20 + round).unwrap();
            assert_eq!(storage.kept_titles(), ["A"]);
        }
        assert_eq!(work(&storage).topics[0].partitions, 24);
        let kept = read_index(&storage.get(INDEX_KEY).unwrap()).unwrap().kept;
        assert_eq!(read_scenario(&storage.get(&kept_key(&kept[0].id)).unwrap()).unwrap().topics[0].partitions, 14);
    }

    #[test]
    fn unreadable_work_is_never_written_over() {
        for (text, why) in [
            (r#"{"version": 3, "topics": []}"#, "newer version (format 3)"),
            (r#"{"version": 1, "topics": [{"name": "t0", "partit"#, "it was cut short"),
            (r#"{"version": 1, "topics": [{"name": "t 0", "partitions": 3}]}"#, "it cannot run: topic 1 name"),
            ("not json", "it is not JSON"),
        ] {
            let storage = Storage::default();
            storage.items.borrow_mut().insert(WORK_KEY.into(), text.into());
            let (mut tab, opening) = Tab::open(&storage, None, "a");
            let unreadable = opening.unreadable.unwrap();
            assert_eq!(unreadable.text, text);
            assert!(unreadable.why.contains(why), "{}", unreadable.why);
            assert_eq!(opening.scenario.title, "first preset");
            tab.edit(11).unwrap();
            tab.edit(12).unwrap();
            assert_eq!(storage.get(WORK_KEY).unwrap(), text, "written over");
            // The work is saved beside it, and opens next time.
            let (_, next) = Tab::open(&storage, None, "b");
            assert_eq!(next.scenario.topics[0].partitions, 12);
            assert!(next.unreadable.is_some());
            assert_eq!(storage.kept_titles(), ["first preset"]);
            // A reload on the tab's own link is the same entry, not a new one.
            let (again, _) = Tab::open(&storage, Some(next.scenario.clone()), "c");
            assert_eq!(again.session.id, next.session.id);
        }
    }

    #[test]
    fn a_history_from_a_newer_version_stops_saving_and_stays() {
        let storage = Storage::default();
        let newer = r#"{"version": 2, "entries": []}"#;
        storage.items.borrow_mut().insert(INDEX_KEY.into(), newer.into());
        let (mut tab, _) = Tab::open(&storage, None, "a");
        assert!(matches!(tab.edit(3), Err(Unsaved::UnreadableHistory(_))));
        assert_eq!(storage.get(INDEX_KEY).unwrap(), newer);
        assert_eq!(storage.get(WORK_KEY), None);
    }

    #[test]
    fn a_full_storage_keeps_the_previous_work() {
        let storage = Storage::default();
        let (mut mine, _) = Tab::open(&storage, None, "a");
        mine.scenario.title = "mine".into();
        mine.edit(7).unwrap();
        let before = storage.get(WORK_KEY);
        storage.quota.set(Some(storage.used() + 100));
        let (mut linked, _) = Tab::open(&storage, Some(scenario("link", 2)), "b");
        // Keeping the previous work does not fit: nothing is written over.
        assert!(linked.save().is_err());
        assert_eq!(storage.get(WORK_KEY), before);
        storage.quota.set(None);
        linked.save().unwrap();
        assert_eq!(storage.kept_titles(), ["mine"]);
    }

    #[test]
    fn the_history_stays_within_its_budget() {
        let storage = Storage::default();
        let (mut tab, _) = Tab::open(&storage, None, "a");
        for n in 0..(MAX_KEPT + 5) {
            tab.session = Session { id: format!("e{n}"), ..tab.session.clone() };
            tab.scenario = scenario(&format!("s{n}"), 1 + n as u32);
            tab.save().unwrap();
        }
        let titles = storage.kept_titles();
        assert_eq!(titles.len(), MAX_KEPT);
        assert_eq!(titles[0], format!("s{}", MAX_KEPT + 3));
        assert_eq!(storage.items.borrow().keys().filter(|k| k.starts_with(KEPT_PREFIX)).count(), MAX_KEPT);

        // Large scenarios: the budget counts bytes; the one kept last stays whatever its size.
        let big = |n: usize, size: usize| Entry {
            id: format!("b{n}"),
            title: String::new(),
            origin: Origin::Own,
            opened: 0.0,
            saved: 0.0,
            size,
            hash: n.to_string(),
        };
        let mut kept = vec![big(0, 3_000_000), big(1, 10)];
        assert_eq!(within_budget(&mut kept).len(), 1);
        assert_eq!(kept.len(), 1);
        let mut kept = vec![big(0, 900_000), big(1, 900_000), big(2, 900_000), big(3, 1)];
        let dropped = within_budget(&mut kept);
        assert_eq!(dropped.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["b2", "b3"]);
    }

    #[test]
    fn the_same_text_is_never_kept_twice() {
        let storage = Storage::default();
        let (mut tab, _) = Tab::open(&storage, None, "a");
        tab.edit(4).unwrap();
        let first = tab.scenario.clone();
        let (mut other, _) = Tab::open(&storage, Some(scenario("other", 2)), "b");
        other.save().unwrap();
        // The other tab loads the first scenario again (undo, the same link): no duplicate.
        other.session = Session::new("c".into(), Origin::Own, 3.0);
        other.scenario = first;
        other.save().unwrap();
        assert_eq!(storage.kept_titles(), ["other"]);
    }

    #[test]
    fn orphans_are_the_unlisted_kept_keys() {
        let index = Index {
            kept: vec![Entry {
                id: "x".into(),
                title: String::new(),
                origin: Origin::Own,
                opened: 0.0,
                saved: 0.0,
                size: 0,
                hash: String::new(),
            }],
            ..Index::default()
        };
        let keys = [kept_key("x"), kept_key("y"), WORK_KEY.to_string()].map(String::from);
        assert_eq!(orphans(&index, &keys), [kept_key("y")]);
    }
}
