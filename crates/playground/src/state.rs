//! The app's one model and its reducer. Every edit is a rebalance: what each strategy assigned
//! becomes what its members own, and the edited group is assigned again from there.
//!
//! The reducer computes no assignment: each scenario gets a version, the compute worker answers
//! for it (`work`), and an answer is painted only if it is of the scenario on screen. Until it
//! comes, the page shows the last answer painted. Side effects (the worker, URL, storage,
//! clipboard) live in effects in `app.rs`, except one: a new version goes to the outbox from the
//! reducer itself ([`Outbox`]), before the page renders anything; `app.rs`'s courier hands a small
//! group's to the workers at once, so they compute while the page paints the edit, and a big
//! group's once the edit's frame is painted. So does, once the first answer is painted, the
//! warm-up ([`WARM_UP`]). A small group's edit is then held back from the screen until its answer
//! comes, for at most [`HOLD_MS`] ([`Outbox::holding`]): the page renders the edit and its answer
//! once, in the first frame that can show the answer. While a count is typed, its draft's edit is
//! computed ahead ([`Action::Draft`]): the key that applies it finds its answer there, and the
//! results region lays that answer out ahead, hidden ([`State::ahead`]).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::{Rc, Weak};

use playground::work::{self, warm_up_round, Answer, Job, Prior, Version, WARM_UP, WARM_UP_ROUNDS};
pub use scenario::edit::{Edit, EditError, Field};
use scenario::{Previous, Scenario};
use yew::Reducible;

use crate::computed::Computed;

pub enum Action {
    /// Make an edit; `scenario` refuses what breaks its rules.
    Edit(Edit),
    /// Replace the whole scenario (preset, link, file); undoable.
    Load(Scenario),
    /// Start over from the current group as a fresh group: no previous assignment.
    Forget,
    SetView(scenario::View),
    /// Replace the scenario's weights (or anything else that is not a rebalance): the same
    /// previous assignment, computed again; undoable.
    Reweigh(Scenario),
    Undo,
    Redo,
    Banner(Option<String>),
    /// Input that is not even a value (letters in a count): say why beside the field.
    Refuse {
        field: Field,
        error: EditError,
    },
    /// The worker computed a version: painted if it is the scenario on screen, dropped if not.
    Computed(Box<Answer>),
    /// An edit held back for its answer ([`Outbox::holding`]) waited [`HOLD_MS`]: it is rendered
    /// now, busy. Nothing when nothing is held.
    Release,
    /// What a count field holds while the person types, not applied yet: the edit it would make
    /// (`None`: no draft, or one that is not a count). Computed ahead, never shown: the edit that
    /// applies it adopts its answer ([`Outbox::holding`]). Renders nothing, except the results
    /// region when it drops the draft's answer it laid out ([`Action::LayOutAhead`]).
    Draft(Option<Edit>),
    /// The draft's answer came [`AHEAD_WAIT_MS`] ago and the draft is still the one typed: the
    /// results region lays it out ahead, hidden ([`State::ahead`]). Renders that region alone.
    LayOutAhead,
}

/// An edit that was refused, and the field it came from (`None`: a button).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub field: Option<Field>,
    pub error: EditError,
}

/// A scenario as the page holds it: its version, where its previous assignment is, and, once the
/// worker has answered for it, what it shows and (a small group) what it settled into.
#[derive(Clone, Debug)]
struct Step {
    scenario: Rc<Scenario>,
    version: Version,
    prior: Prior,
    shown: Option<Rc<Computed>>,
    settled: Option<Rc<Previous>>,
}

impl Step {
    fn job(&self) -> Job {
        Job { version: self.version, prior: self.prior, scenario: Rc::clone(&self.scenario) }
    }

    /// The scenario the next edit starts from: this one settled, whole when its settled
    /// assignment crossed, else referring to the worker's.
    fn settled(&self) -> (Rc<Scenario>, Prior) {
        match &self.settled {
            Some(previous) => {
                let previous = Some((**previous).clone());
                (Rc::new(Scenario { previous, ..(*self.scenario).clone() }), Prior::Inline)
            }
            None => (Rc::new(Scenario { previous: None, ..(*self.scenario).clone() }), Prior::Settled(self.version)),
        }
    }
}

/// Where the reducer sends a new version's jobs (and the versions the worker must keep) the moment
/// it makes them: `app.rs`'s courier, which hands them to the compute workers (a small group's at
/// once, a big group's after the edit's frame). They answer later, as a message, never from
/// within this dispatch. Empty in tests, and until the
/// worker has started: the effect in `app.rs` hands over the first version.
#[derive(Clone, Default)]
pub struct Outbox {
    deliver: Option<Rc<Deliver>>,
    hold: Option<Hold>,
}

/// Hands jobs and the versions to keep to the worker, and says why.
type Deliver = dyn Fn(Vec<Job>, Vec<Version>, Errand);

/// Why the reducer hands jobs to the workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errand {
    /// A new version of the scenario on screen (and the unanswered versions it builds on).
    Version,
    /// A round of the warm-up ([`WARM_UP`]).
    WarmUp,
    /// A draft's edit, computed ahead ([`Action::Draft`]): no version on screen yet.
    Draft,
}

/// The longest a small group's edit is held back from the screen for its answer
/// ([`Outbox::holding`]): the bound on an edit's way to the screen (issue 9). The busy
/// results only dim after 0.12 s (`www/style.css`), so a held edit looks the same on screen.
pub const HOLD_MS: u32 = 50;

/// How long a draft's answer waits before the results region lays it out ahead
/// ([`Action::LayOutAhead`]). Laid out, it takes the page's thread for a render and a frame (at
/// 1,000 partitions × 50 consumers, some 20–30 ms to mount the hidden copy, 10 to update it): keys
/// that come faster than a person's (a paste then Enter, a script typing digits back to back) would
/// find that work in their way, for an answer they then replace or apply before it is laid out. A
/// person's next key comes 100 ms or more after the last.
pub const AHEAD_WAIT_MS: u32 = 40;

/// The edit held back from the screen, and how the page is asked to release it.
#[derive(Clone)]
struct Hold {
    held: Rc<RefCell<Option<Rc<State>>>>,
    /// Has [`Action::Release`] dispatched [`HOLD_MS`] from now (replacing an earlier release);
    /// `false` when it cannot be.
    release_later: Rc<dyn Fn() -> bool>,
    /// Has [`Action::LayOutAhead`] dispatched [`AHEAD_WAIT_MS`] from now (replacing an earlier
    /// one); nothing when no page lays answers out ([`Outbox::laying_out_ahead`]).
    lay_out_later: Rc<dyn Fn()>,
    /// The draft computed ahead, if one is.
    drafts: Rc<RefCell<Drafts>>,
}

/// The drafts computed ahead ([`Action::Draft`]): the newest, and the versions drafts took.
#[derive(Default)]
struct Drafts {
    ahead: Option<Ahead>,
    /// The highest version a draft was handed over under. Each draft takes a version of its own,
    /// above the scenario on screen's: a newer draft's job then replaces an older one waiting for
    /// the workers (`work::Queue`), and, once the edit that applies a draft comes, the workers
    /// are computing or have computed that very job (a job sent again under the version being
    /// computed is not computed twice). Any version made later comes above every draft's, so no
    /// two scenarios share a version: a draft not adopted is a version no scenario has, whose
    /// answer is stale, and whose settled assignment the workers drop with their next job (it is
    /// in no `keep`).
    last: Version,
}

/// A draft's edit, made from the state on screen and handed to the workers.
struct Ahead {
    /// The state it was made from: only the same edit of that very state adopts it.
    from: Weak<State>,
    edit: Edit,
    /// The edit made (pending, under its own version), as the reducer would make it.
    made: Rc<State>,
    /// The edit made with its answer painted, once the answer came: what the edit that applies
    /// the draft renders, and what the results region lays out ahead ([`State::ahead`]).
    answered: Option<Rc<State>>,
    /// Whether the results region lays that answer out ([`Action::LayOutAhead`]).
    laid_out: bool,
}

impl Outbox {
    pub fn new(send: impl Fn(Vec<Job>, Vec<Version>, Errand) + 'static) -> Outbox {
        Outbox { deliver: Some(Rc::new(send)), hold: None }
    }

    /// The outbox with small groups' edits held back from the screen until their answer comes,
    /// for at most [`HOLD_MS`] (`release_later` has the page dispatch [`Action::Release`] then).
    ///
    /// Such an edit goes to the workers at once, and they answer in a few milliseconds; rendered
    /// at once, the edit took the page's thread (its render, then its style and layout in the next
    /// frame) while the two workers computed, three threads on a two-core machine, and the
    /// answer then rendered the same components again (traced: typed at 1,000 partitions, the
    /// answer always painted in the second frame after the key). Held, the reducer moves on (the
    /// next action starts from the held edit) while the page shows what it showed, and the
    /// answer renders the edit and itself in one go. Only an edit made with the last answer
    /// painted: an edit that comes while one is pending is rendered at once, busy.
    ///
    /// Such an outbox also computes drafts ahead ([`Action::Draft`]). A typed count is applied by
    /// Enter; the workers' answer then came a frame after the edit's (traced: key, job, the two
    /// workers, reading and rendering the answer, 18–26 ms of the page's thread before its frame).
    /// A draft's edit made from the state on screen goes to the workers as it is typed, and the
    /// edit that applies it, made from the same state, adopts it: the same scenario under the same
    /// version, whose answer is the very job's. Its answer, if in, renders with the edit in the
    /// key's own task; if on its way, the edit is held for it as any other.
    pub fn holding(self, release_later: impl Fn() -> bool + 'static) -> Outbox {
        let hold = Hold {
            held: Rc::default(),
            release_later: Rc::new(release_later),
            lay_out_later: Rc::new(|| ()),
            drafts: Rc::default(),
        };
        Outbox { hold: Some(hold), ..self }
    }

    /// The outbox with each draft's answer laid out ahead by the results region once it waited
    /// [`AHEAD_WAIT_MS`] (`later` has the page dispatch [`Action::LayOutAhead`] then); a holding
    /// outbox only.
    pub fn laying_out_ahead(self, later: impl Fn() + 'static) -> Outbox {
        let hold = self.hold.map(|hold| Hold { lay_out_later: Rc::new(later), ..hold });
        Outbox { hold, ..self }
    }

    /// The edit held back, if any, no longer held.
    fn take_held(&self) -> Option<Rc<State>> {
        self.hold.as_ref().and_then(|hold| hold.held.borrow_mut().take())
    }

    /// Holds `state` back from the screen, if this outbox holds edits and its release can be had.
    fn hold(&self, state: &Rc<State>) -> bool {
        let Some(hold) = &self.hold else { return false };
        let held = (hold.release_later)();
        if held {
            self.hold_still(state);
        }
        held
    }

    /// Holds `state`, taken out to act on, back again (its release is on its way).
    fn hold_still(&self, state: &Rc<State>) {
        if let Some(hold) = &self.hold {
            *hold.held.borrow_mut() = Some(Rc::clone(state));
        }
    }

    /// Hands `errand`'s `jobs` to the workers, if there are workers.
    fn send(&self, jobs: Vec<Job>, keep: Vec<Version>, errand: Errand) {
        if let Some(deliver) = &self.deliver {
            deliver(jobs, keep, errand);
        }
    }

    /// `state` with its next version above every draft's (unchanged when it is already).
    fn past_drafts(&self, state: Rc<State>) -> Rc<State> {
        let Some(hold) = &self.hold else { return state };
        let last = hold.drafts.borrow().last;
        if state.next > last {
            return state;
        }
        Rc::new(State { next: last + 1, ..(*state).clone() })
    }

    /// Computes `edit`, a draft's, ahead from `from` (the state on screen), replacing the draft
    /// before; `None` (or an edit not worth computing ahead) only drops that one. Only a small
    /// group's edit, made with the last answer painted and valid: a draft the reducer would refuse
    /// is not sent.
    fn draft(&self, from: &Rc<State>, edit: Option<Edit>) {
        let Some(hold) = &self.hold else { return };
        let Some(edit) = edit else { return };
        if self.deliver.is_none() || from.pending() || !handed_over_at_once(&from.scenario) {
            return;
        }
        let made = self.past_drafts(Rc::clone(from)).apply(Action::Edit(edit.clone()));
        if made.refused.is_some() || !made.pending() || !handed_over_at_once(&made.scenario) {
            return;
        }
        let Some(jobs) = made.jobs() else { return };
        let mut drafts = hold.drafts.borrow_mut();
        drafts.last = made.version();
        let made = Rc::new(made);
        drafts.ahead =
            Some(Ahead { from: Rc::downgrade(from), edit, made: Rc::clone(&made), answered: None, laid_out: false });
        drop(drafts);
        self.send(jobs, made.keep(), Errand::Draft);
    }

    /// Drops the draft computed ahead, if any; whether the results region laid its answer out
    /// (and must drop it).
    fn drop_draft(&self) -> bool {
        let Some(hold) = &self.hold else { return false };
        hold.drafts.borrow_mut().ahead.take().is_some_and(|ahead| ahead.laid_out)
    }

    /// Paints `answer` into the draft's edit if it is the draft's, and has it laid out ahead
    /// later; `Err(answer)` if it is not.
    fn draft_answered(&self, answer: Box<Answer>) -> Result<(), Box<Answer>> {
        let Some(hold) = &self.hold else { return Err(answer) };
        match hold.drafts.borrow_mut().ahead.as_mut() {
            Some(ahead) if ahead.made.version() == answer.version && ahead.answered.is_none() => {
                ahead.answered = Some(Rc::new(ahead.made.apply(Action::Computed(answer))));
            }
            _ => return Err(answer),
        }
        (hold.lay_out_later)();
        Ok(())
    }

    /// Marks the answer of the draft made from `from` laid out; whether it was not yet (and is
    /// in).
    fn lay_out(&self, from: &State) -> bool {
        let Some(hold) = &self.hold else { return false };
        let mut drafts = hold.drafts.borrow_mut();
        let Some(ahead) = drafts.ahead.as_mut() else { return false };
        let due = ahead.answered.is_some() && !ahead.laid_out && std::ptr::eq(ahead.from.as_ptr(), from);
        ahead.laid_out |= due;
        due
    }

    /// The state on screen is now `to` (the same, rendered again to lay the draft's answer out):
    /// the draft made from the one before is made from it.
    fn draft_from(&self, to: &Rc<State>) {
        let Some(hold) = &self.hold else { return };
        if let Some(ahead) = hold.drafts.borrow_mut().ahead.as_mut() {
            ahead.from = Rc::downgrade(to);
        }
    }

    /// The draft `edit` of `from` was computed ahead as, with its answer painted if in: taken (a
    /// draft is adopted once). Any other edit drops the draft.
    fn adopt(&self, from: &Rc<State>, edit: &Edit) -> Option<Result<Rc<State>, Rc<State>>> {
        let ahead = self.hold.as_ref()?.drafts.borrow_mut().ahead.take()?;
        let same = ahead.from.ptr_eq(&Rc::downgrade(from)) && ahead.edit == *edit;
        same.then(|| ahead.answered.ok_or(ahead.made))
    }

    /// The answer of the draft made from `from`, if in.
    fn ahead(&self, from: &State) -> Option<Rc<Computed>> {
        let drafts = self.hold.as_ref()?.drafts.borrow();
        let ahead = drafts.ahead.as_ref().filter(|ahead| ahead.laid_out)?;
        let answered = ahead.answered.as_ref()?;
        std::ptr::eq(ahead.from.as_ptr(), from).then(|| Rc::clone(&answered.shown))
    }

    /// Whether a draft is computed ahead (the warm-up then stops: the person is editing).
    pub fn drafting(&self) -> bool {
        self.hold.as_ref().is_some_and(|hold| hold.drafts.borrow().ahead.is_some())
    }
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.deliver.is_some() { "Outbox(worker)" } else { "Outbox(none)" })
    }
}

/// Whether a version of `scenario` goes to the workers the moment it is made (`app.rs`'s
/// courier) and its answer comes within a frame or two: a group whose settled assignment crosses
/// with its answer (at most [`work::INLINE_ENTRIES`] entries).
pub fn handed_over_at_once(scenario: &Scenario) -> bool {
    work::settled_entries(scenario) <= work::INLINE_ENTRIES
}

#[derive(Clone, Debug)]
pub struct State {
    /// The scenario on screen; its `previous` is the assignment before the last edit, unless the
    /// worker holds it (a big group: see `work`).
    pub scenario: Rc<Scenario>,
    /// Its version, its prior, and its answer once it came.
    step: Step,
    /// The last answer painted: this scenario's, or while its own is pending an earlier one's.
    pub shown: Rc<Computed>,
    /// The version `shown` is of.
    pub shown_version: Version,
    /// How long the worker took to compute `shown` (for the performance script), in ms.
    pub compute_ms: f64,
    /// The field being edited and the scenario its first edit started from.
    current: Option<(Field, Rc<Scenario>, Prior)>,
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The next version to hand out.
    next: Version,
    /// The last refused edit.
    pub refused: Option<Refusal>,
    /// A page-wide message (a link or a file that did not open).
    pub banner: Option<String>,
    /// Where a new version's work goes at once.
    outbox: Outbox,
}

/// Whether the components that read the store (through its context) show the same: the scenario,
/// where its previous assignment is, and what is said about it. Not the answer: only the results
/// region shows it, and it follows the answer through a context of its own (`app.rs`'s
/// `Painted`), so that an answer renders the region alone rather than the editors and the header
/// too (issue 9).
impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.scenario, &other.scenario)
            && self.prior() == other.prior()
            && self.refused == other.refused
            && self.banner == other.banner
    }
}

/// How many steps undo remembers (a big group fewer: see [`work::SETTLED_BUDGET`]).
const UNDO_DEPTH: usize = 100;

impl State {
    /// The page's first scenario (version 1), nothing computed yet.
    pub fn new(scenario: Scenario) -> State {
        let scenario = Rc::new(scenario);
        State {
            step: Step { scenario: Rc::clone(&scenario), version: 1, prior: Prior::Inline, shown: None, settled: None },
            scenario,
            shown: Rc::new(Computed::default()),
            shown_version: 0,
            compute_ms: 0.0,
            current: None,
            undo: Vec::new(),
            redo: Vec::new(),
            next: 2,
            refused: None,
            banner: None,
            outbox: Outbox::default(),
        }
    }

    /// The state with `outbox` as where its new versions' work goes.
    pub fn with_outbox(self, outbox: Outbox) -> State {
        State { outbox, ..self }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The version on screen.
    pub fn version(&self) -> Version {
        self.step.version
    }

    /// Where the previous assignment of the scenario on screen is: in it, or (a big group) in the
    /// worker, which then writes its link, saved copy and export (`travel`).
    pub fn prior(&self) -> Prior {
        self.step.prior
    }

    /// The job of `version`, a step undo and redo can reach: the worker computes it again when a
    /// big group's member is opened in its answer and it is not the last it computed.
    pub fn job_of(&self, version: Version) -> Option<Job> {
        self.steps().find(|s| s.version == version).map(Step::job)
    }

    /// The answer of the draft being typed, computed ahead, once it came: the results region lays
    /// it out hidden, so that the edit that applies the draft, which paints this very answer
    /// ([`Outbox::adopt`]), is shown by swapping it in (`app.rs`'s `Results`).
    pub fn ahead(&self) -> Option<Rc<Computed>> {
        self.outbox.ahead(self)
    }

    /// The state on screen as a new value equal to it: the results region, which follows the
    /// draft laid out ahead, renders again, and the store's readers do not. The draft made from
    /// it is made from the new value.
    fn again(self: &Rc<Self>) -> Rc<State> {
        let state = Rc::new((**self).clone());
        state.outbox.draft_from(&state);
        state
    }

    /// Whether a count is being typed, its draft computed ahead.
    pub fn drafting(&self) -> bool {
        self.outbox.drafting()
    }

    /// Whether the scenario on screen waits for its answer (the panels show an earlier one).
    pub fn pending(&self) -> bool {
        self.step.shown.is_none()
    }

    /// What the worker must compute for the scenario on screen, if its answer has not come: its
    /// job last, and before it, oldest first, the unanswered versions it builds on (edits that came
    /// faster than the answers; the worker skips those it has settled already).
    pub fn jobs(&self) -> Option<Vec<Job>> {
        if !self.pending() {
            return None;
        }
        let mut jobs = vec![self.step.job()];
        let mut prior = self.step.prior;
        while let Prior::Settled(base) = prior {
            let Some(step) = self.steps().find(|s| s.version == base && s.shown.is_none()) else { break };
            jobs.push(step.job());
            prior = step.prior;
        }
        jobs.reverse();
        Some(jobs)
    }

    /// The versions whose settled assignment the worker must keep: every step's (the next edit
    /// from it starts there) and every step's prior (it is computed and written from it).
    pub fn keep(&self) -> Vec<Version> {
        let mut keep: Vec<Version> = self.steps().flat_map(Self::needs).collect();
        if let Some((_, _, Prior::Settled(base))) = &self.current {
            keep.push(*base);
        }
        keep.sort_unstable();
        keep.dedup();
        keep
    }

    fn steps(&self) -> impl Iterator<Item = &Step> {
        self.undo.iter().chain(self.redo.iter()).chain(std::iter::once(&self.step))
    }

    /// The versions a step needs the worker to keep: its own settled assignment, and its prior,
    /// from which it is computed and with which its link, save and export are written (`travel`).
    fn needs(step: &Step) -> impl Iterator<Item = Version> {
        let own = step.settled.is_none().then_some(step.version);
        let prior = match step.prior {
            Prior::Settled(base) => Some(base),
            Prior::Inline => None,
        };
        own.into_iter().chain(prior)
    }

    /// Why the last edit of `field` was refused, if it was.
    pub fn refusal(&self, field: Field) -> Option<String> {
        self.refused.as_ref().filter(|r| r.field == Some(field)).map(|r| r.error.reason())
    }

    /// `step` on screen: its own answer if it has one, else the last one painted, dimmed.
    fn show(
        &self,
        step: Step,
        current: Option<(Field, Rc<Scenario>, Prior)>,
        undo: Vec<Step>,
        redo: Vec<Step>,
    ) -> State {
        let (shown, shown_version) = match &step.shown {
            Some(shown) => (Rc::clone(shown), step.version),
            None => (Rc::clone(&self.shown), self.shown_version),
        };
        let mut state = State {
            scenario: Rc::clone(&step.scenario),
            step,
            shown,
            shown_version,
            compute_ms: self.compute_ms,
            current,
            undo,
            redo,
            next: self.next,
            refused: None,
            banner: self.banner.clone(),
            outbox: self.outbox.clone(),
        };
        state.trim();
        state
    }

    /// A new step for `scenario`, with the next version.
    fn fresh(&mut self, scenario: Rc<Scenario>, prior: Prior) -> Step {
        let version = self.next;
        self.next += 1;
        Step { scenario, version, prior, shown: None, settled: None }
    }

    /// Drops the oldest undo steps while what the worker keeps for them exceeds the budget.
    fn trim(&mut self) {
        let over = |state: &State| {
            let sizes: BTreeMap<Version, usize> =
                state.steps().map(|s| (s.version, work::settled_entries(&s.scenario))).collect();
            let biggest = sizes.values().copied().max().unwrap_or(0);
            // A prior that is no step's own version (the oldest step's) is as large as its step.
            let kept: usize = state.keep().iter().map(|v| sizes.get(v).copied().unwrap_or(biggest)).sum();
            kept > work::SETTLED_BUDGET
        };
        if self.undo.len() > UNDO_DEPTH {
            self.undo.drain(..self.undo.len() - UNDO_DEPTH);
        }
        while !self.undo.is_empty() && over(self) {
            self.undo.remove(0);
        }
    }

    fn push_undo(&self) -> Vec<Step> {
        let mut undo = self.undo.clone();
        undo.push(self.step.clone());
        undo
    }

    pub fn apply(&self, action: Action) -> State {
        match action {
            Action::Edit(edit) => {
                let field = edit.field();
                let continuing = match &self.current {
                    Some((current, base, prior)) if Some(*current) == field => Some((Rc::clone(base), *prior)),
                    _ => None,
                };
                let (base, prior) = continuing.clone().unwrap_or_else(|| self.step.settled());
                match edit.apply(&base) {
                    Ok(next) => {
                        // A continued edit replaces the last one: undo goes back past both.
                        let undo = if continuing.is_some() { self.undo.clone() } else { self.push_undo() };
                        let mut state = self.clone();
                        let step = state.fresh(Rc::new(next), prior);
                        state.show(step, field.map(|f| (f, base, prior)), undo, Vec::new())
                    }
                    Err(error) => State { refused: Some(Refusal { field, error }), ..self.clone() },
                }
            }
            Action::Load(scenario) => self.replace(scenario),
            Action::Forget => self.replace(Scenario { previous: None, ..(*self.scenario).clone() }),
            Action::SetView(view) => {
                // The view is not a rebalance: same group, same previous assignment, same answer.
                let scenario = Rc::new(Scenario { view, ..(*self.scenario).clone() });
                State { step: Step { scenario: Rc::clone(&scenario), ..self.step.clone() }, scenario, ..self.clone() }
            }
            Action::Reweigh(scenario) => {
                let previous = self.scenario.previous.clone();
                let mut state = self.clone();
                let step = state.fresh(Rc::new(Scenario { previous, ..scenario }), self.step.prior);
                state.show(step, None, self.push_undo(), Vec::new())
            }
            Action::Undo => match self.undo.split_last() {
                Some((last, rest)) => {
                    let mut redo = self.redo.clone();
                    redo.push(self.step.clone());
                    self.show(last.clone(), None, rest.to_vec(), redo)
                }
                None => self.clone(),
            },
            Action::Redo => match self.redo.split_last() {
                Some((next, rest)) => self.show(next.clone(), None, self.push_undo(), rest.to_vec()),
                None => self.clone(),
            },
            Action::Banner(banner) => State { banner, ..self.clone() },
            Action::Refuse { field, error } => {
                State { refused: Some(Refusal { field: Some(field), error }), ..self.clone() }
            }
            Action::Computed(answer) => self.answered(*answer),
            // The reducer renders what was held, and computes drafts ahead ([`Reducible::reduce`]).
            Action::Release | Action::Draft(_) | Action::LayOutAhead => self.clone(),
        }
    }

    /// A whole new scenario, undoable.
    fn replace(&self, scenario: Scenario) -> State {
        let mut state = self.clone();
        let step = state.fresh(Rc::new(scenario), Prior::Inline);
        state.show(step, None, self.push_undo(), Vec::new())
    }

    /// Whether `answer` is of no scenario waiting on screen (an edit overtook it, or the warm-up's).
    fn stale(&self, answer: &Answer) -> bool {
        answer.version != self.step.version || !self.pending()
    }

    /// The worker's answer: painted when it is of the scenario on screen; any other is stale.
    fn answered(&self, answer: Answer) -> State {
        if self.stale(&answer) {
            return self.clone();
        }
        let mut step = self.step.clone();
        if let Some(previous) = answer.previous {
            // The previous assignment crossed back: the page holds the scenario whole again.
            step.scenario = Rc::new(Scenario { previous: Some(previous), ..(*step.scenario).clone() });
            step.prior = Prior::Inline;
        }
        if answer.prior_lost {
            // Computed as a fresh group: so it is written, links and saves alike.
            step.prior = Prior::Inline;
        }
        step.settled = answer.settled.map(Rc::new);
        let shown = Rc::new(answer.computed);
        step.shown = Some(Rc::clone(&shown));
        State {
            scenario: Rc::clone(&step.scenario),
            step,
            shown,
            shown_version: answer.version,
            compute_ms: answer.compute_ms,
            banner: match answer.prior_lost {
                true => Some(LOST.to_string()),
                false => self.banner.clone(),
            },
            ..self.clone()
        }
    }
}

/// The banner when the worker no longer had what a scenario was built on.
const LOST: &str = "This step's previous assignment is no longer kept (a very large group keeps few undo steps): it is shown as a fresh group.";

impl State {
    /// Round `round` of the warm-up (version `WARM_UP - round`): an edit the person might make next
    /// ([`edited_copy`]: the scenario on screen settled, one partition fewer on a topic), computed
    /// by the workers and read by the page as any answer is, then dropped unpainted. The first
    /// round goes once the first answer is painted, each next one once the last one's answer is
    /// in, while the person has made no edit ([`WARM_UP_ROUNDS`] in all).
    ///
    /// Both wasm programs start every function cold: V8 compiles it on its first call, then again,
    /// optimised and in the background, once it has run long enough (its tiering budget). The first
    /// edit after load was the first to run the sticky assignors from an owned assignment, the
    /// diff and the answer's reading, and its optimised compiles (about 200 ms of one core at
    /// 1,000 partitions, traced) took the two cores from that edit's answer. One round of the
    /// unchanged group (stop 17) still left 26 functions to compile in the first edit (traced with
    /// `--js-flags=--trace-wasm-compilation-times`): nothing revoked, no moves to diff and check,
    /// and the largest functions (reading and writing the messages, the worker's and the page's
    /// handlers) short of their budget after one message, and the worker's first write of the
    /// scenario (after the answer, `work::Engine::run` writes the warm-up too). The rounds run
    /// them while the person reads the page.
    ///
    /// Only for a group whose settled assignment crosses (at most [`work::INLINE_ENTRIES`]
    /// entries): a few milliseconds of the worker a round, never more than an edit's own.
    fn warm_up(&self, round: Version) -> Option<(Job, Vec<Version>)> {
        let edited = !self.undo.is_empty() || !self.redo.is_empty();
        if round >= WARM_UP_ROUNDS || edited || self.pending() {
            return None;
        }
        if !handed_over_at_once(&self.scenario) {
            return None;
        }
        let (settled, prior) = self.step.settled();
        let scenario = edited_copy(&settled).map_or(settled, Rc::new);
        Some((Job { version: WARM_UP - round, prior, scenario }, self.keep()))
    }

    /// Hands round `round` of the warm-up to the worker, if it is due.
    fn send_warm_up(&self, round: Version) {
        if let Some((job, keep)) = self.warm_up(round).filter(|_| !self.outbox.drafting()) {
            self.outbox.send(vec![job], keep, Errand::WarmUp);
        }
    }
}

/// `settled` as a typical edit leaves it: one partition fewer on its first topic that has any, so
/// that its owners lose one (sticky revokes it, the diff counts a move, the checks see a changed
/// count). `None` when no topic has a partition.
fn edited_copy(settled: &Scenario) -> Option<Scenario> {
    let topic = settled.topics.iter().position(|t| t.partitions > 0)?;
    let partitions = settled.topics[topic].partitions - 1;
    Edit::SetPartitions { topic, partitions }.apply(settled).ok()
}

impl Reducible for State {
    type Action = Action;

    /// `self` is the state on screen; an edit held back for its answer ([`Outbox::holding`]) is
    /// where the action starts from. Returning `self` renders nothing.
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let held = self.outbox.take_held();
        let current = held.clone().unwrap_or_else(|| Rc::clone(&self));
        let action = match action {
            // A draft, from the state on screen only (not while an edit is held), renders nothing
            // but the results region dropping the one before it laid out ahead (the same state
            // again: the readers of the store see nothing new).
            Action::Draft(edit) => {
                if let Some(held) = held {
                    self.outbox.hold_still(&held);
                    return self;
                }
                // A newer draft keeps the copy laid out (its answer replaces it there); none drops it.
                let dropped = self.outbox.drop_draft();
                self.outbox.draft(&self, edit);
                if !dropped || self.outbox.drafting() {
                    return self;
                }
                return self.again();
            }
            // An answer no scenario waits for changes nothing: the same state, so nothing renders
            // (a draft's is laid out later, `Action::LayOutAhead`).
            Action::Computed(answer) if current.stale(&answer) => {
                if let Err(answer) = self.outbox.draft_answered(answer) {
                    // A warm-up round's: the next round goes.
                    if let Some(round) = warm_up_round(answer.version) {
                        current.send_warm_up(round + 1);
                    }
                }
                if let Some(held) = held {
                    // Still held: its own answer is on its way.
                    self.outbox.hold_still(&held);
                }
                return self;
            }
            // The draft's answer laid out: the same state again (the store's readers see nothing
            // new), whose `ahead` the results region renders.
            Action::LayOutAhead => {
                if let Some(held) = held {
                    self.outbox.hold_still(&held);
                    return self;
                }
                if !self.outbox.lay_out(&self) {
                    return self;
                }
                return self.again();
            }
            // What was held, rendered now (nothing held: `self`, nothing renders).
            Action::Release => return current,
            action => action,
        };
        let edit = matches!(action, Action::Edit(_));
        let adopted = match &action {
            Action::Edit(edit) => self.outbox.adopt(&current, edit),
            _ => None,
        };
        if adopted.is_none() {
            // Any other action leaves the draft behind (an edit's adoption took it already).
            self.outbox.drop_draft();
        }
        let next = match adopted {
            // The draft's edit, made as `apply` makes it, under the version its job went with;
            // with its answer, if in, painted (the very answer the results region laid out).
            Some(Ok(answered)) => answered,
            Some(Err(made)) => made,
            None => Rc::new(self.outbox.past_drafts(Rc::clone(&current)).apply(action)),
        };
        if next.version() != current.version() {
            // Before anything renders (the courier decides when the workers get it). A draft's
            // job sent again is not computed twice (`work::Queue`).
            if let Some(jobs) = next.jobs() {
                next.outbox.send(jobs, next.keep(), Errand::Version);
            }
        } else if current.shown_version == 0 && next.shown_version != 0 {
            // The first answer is painted: the worker is idle, the person reading.
            next.send_warm_up(0);
        }
        // An edit from the answer on screen, whose answer is the workers' next: held back, the
        // page rendering it with that answer (within `HOLD_MS`).
        let holds = edit
            && held.is_none()
            && !current.pending()
            && next.pending()
            && next.version() != current.version()
            && handed_over_at_once(&next.scenario);
        if holds && next.outbox.hold(&next) {
            return self;
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use playground::work::Engine;
    use scenario::report::Report;

    use super::*;

    thread_local! {
        /// The compute worker, here answering at once on the test's own thread.
        static WORKER: RefCell<Engine> = RefCell::new(Engine::default());
    }

    /// The worker's answer for the scenario on screen, if it waits for one.
    fn answer(state: &State) -> Option<Answer> {
        let jobs = state.jobs()?;
        WORKER.with(|engine| engine.borrow_mut().compute(jobs, &state.keep()))
    }

    /// `state` with its answer painted, as the page is once the worker has answered.
    fn answered(state: State) -> State {
        match answer(&state) {
            Some(answer) => state.apply(Action::Computed(Box::new(answer))),
            None => state,
        }
    }

    /// `apply`, then let the worker answer.
    trait Page {
        fn act(&self, action: Action) -> State;
    }

    impl Page for State {
        fn act(&self, action: Action) -> State {
            answered(self.apply(action))
        }
    }

    fn preset(id: &str) -> State {
        answered(State::new(scenario::presets::find(id).and_then(|p| p.scenario().ok()).unwrap_or_default()))
    }

    /// The report of the scenario on screen, which a small group holds whole once answered.
    fn report(state: &State) -> Report {
        assert!(!state.pending());
        Report::new(&state.scenario)
    }

    fn range_of(state: &State, member: &str) -> Vec<String> {
        let report = report(state);
        let outcome = report.outcome(assignor::Strategy::Range).unwrap();
        outcome.rebalance.result()[member].iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_edit_rebalances_from_the_last_assignment() {
        let state = preset("range-imbalance");
        assert_eq!(range_of(&state, "C1"), ["T1-0", "T1-1", "T1-2", "T2-0", "T2-1"]);
        let state = state.act(Action::Edit(Edit::AddConsumer));
        let report = report(&state);
        let range = report.outcome(assignor::Strategy::Range).unwrap();
        // C1 owned five partitions before the edit; now the ranges are cut three ways.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        assert_eq!(range_of(&state, "C0"), ["T1-0", "T1-1", "T2-0"]);
        assert!(state.can_undo());
    }

    #[test]
    fn typing_into_one_field_is_one_rebalance() {
        let state = preset("range-imbalance");
        let typed = |state: &State, n| state.act(Action::Edit(Edit::SetPartitions { topic: 0, partitions: n }));
        let after_1 = typed(&state, 1);
        let after_12 = typed(&after_1, 12);
        let report = report(&after_12);
        let range = report.outcome(assignor::Strategy::Range).unwrap();
        // The diff starts from the 5-partition topic, not from the 1 typed on the way to 12.
        assert_eq!(range.rebalance.before["C1"].len(), 5);
        let undone = after_12.apply(Action::Undo);
        assert!(Rc::ptr_eq(&undone.scenario, &state.scenario));
    }

    #[test]
    fn bad_input_is_refused_and_the_work_kept() {
        let state = preset("range-imbalance");
        for edit in [
            Edit::RenameTopic { topic: 0, name: "T2".into() },
            Edit::RenameTopic { topic: 0, name: "has space".into() },
            Edit::SetPartitions { topic: 0, partitions: 5_000_000 },
            Edit::RenameConsumer { consumer: 1, id: "C1".into() },
            Edit::RenameConsumer { consumer: 1, id: " ".into() },
            Edit::RemoveTopic { topic: 9 },
            Edit::Leave { consumer: 9 },
        ] {
            let next = state.act(Action::Edit(edit.clone()));
            assert!(Rc::ptr_eq(&next.scenario, &state.scenario), "{edit:?} was applied");
            let refused = next.refused.as_ref().unwrap_or_else(|| panic!("{edit:?} gave no reason"));
            // The reason shows beside the field the edit came from.
            assert_eq!(refused.field, edit.field());
            if let Some(field) = edit.field() {
                assert_eq!(next.refusal(field), Some(refused.error.reason()));
            }
        }
    }

    #[test]
    fn the_replication_factor_and_the_racks_are_two_edits() {
        let state = preset("range-imbalance");
        let factor = state.act(Action::Edit(Edit::SetReplicationFactor { topic: 0, factor: 2 }));
        let racks = factor
            .act(Action::Edit(Edit::SetReplicaRacks { topic: 0, racks: vec![Some("x".into()), Some("y".into())] }));
        // Undo takes the racks back and leaves the factor: each input is its own field.
        let undone = racks.apply(Action::Undo);
        assert!(Rc::ptr_eq(&undone.scenario, &factor.scenario));
        assert_eq!(undone.apply(Action::Undo).scenario, state.scenario);
    }

    /// What Kafka's metadata holds, the page holds: a topic with no partitions (being created or
    /// re-created) and replicas on brokers without a rack.
    #[test]
    fn a_topic_without_partitions_and_rackless_replicas_are_edits_like_any_other() {
        let state = preset("range-imbalance");
        let emptied = state.act(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 0 }));
        assert!(emptied.refused.is_none());
        assert_eq!(emptied.scenario.topics[0].partitions, 0);
        assert_eq!(range_of(&emptied, "C1"), ["T2-0", "T2-1"]);
        let racks = vec![Some("a".to_string()), None];
        let rackless =
            state.act(Action::Edit(Edit::SetPartitionRacks { topic: 0, partition: 1, racks: Some(racks.clone()) }));
        assert!(rackless.refused.is_none());
        assert_eq!(rackless.scenario.topics[0].racks_of(1), racks);
    }

    /// The scenario after `edits`, each from the last one settled, as the reducer built it on the
    /// main thread before the worker (and as `kap` computes a scenario file): the reference.
    fn the_old_way(first: &Scenario, edits: &[Edit]) -> Scenario {
        edits.iter().fold(first.clone(), |scenario, edit| {
            edit.apply(&Report::new(&scenario).settled(&scenario)).unwrap_or_else(|e| panic!("{edit:?}: {e:?}"))
        })
    }

    #[test]
    fn an_answer_for_a_version_no_longer_on_screen_is_never_painted() {
        let state = preset("range-imbalance");
        let first = Rc::clone(&state.shown);
        let two = state.apply(Action::Edit(Edit::AddConsumer));
        // Pending: the panels keep the last answer (dimmed, aria-busy), not a blank.
        assert!(two.pending());
        assert!(Rc::ptr_eq(&two.shown, &first));
        assert_eq!(two.shown_version, state.version());
        let late = answer(&two).unwrap_or_else(|| panic!("no job"));
        // Another field is edited before the worker answers: version 2's answer is stale.
        let three = two.apply(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 7 }));
        let ignored = three.apply(Action::Computed(Box::new(late.clone())));
        assert!(ignored.pending());
        assert!(Rc::ptr_eq(&ignored.shown, &first));
        // Version 3 builds on version 2 settled, which the worker settles although it never
        // painted it; its answer is exactly the report of the scenario built the old way.
        let painted = answered(ignored);
        assert!(!painted.pending());
        assert_eq!(painted.shown_version, painted.version());
        let first_scenario = preset("range-imbalance").scenario;
        let reference =
            the_old_way(&first_scenario, &[Edit::AddConsumer, Edit::SetPartitions { topic: 0, partitions: 7 }]);
        assert_eq!(*painted.shown, Computed::new(&Report::new(&reference), &reference));
        assert_eq!(*painted.scenario, reference);
        // Undo back to version 2: its late answer is now current, and painted.
        let undone = painted.apply(Action::Undo);
        assert!(undone.pending());
        let back = undone.apply(Action::Computed(Box::new(late)));
        assert!(!back.pending());
        assert_eq!(*back.scenario, the_old_way(&first_scenario, &[Edit::AddConsumer]));
    }

    /// The reducer hands each new version to the outbox itself, once, before the page renders;
    /// what makes no new version (a refusal, a banner, an answer, the view) sends nothing.
    #[test]
    fn a_new_version_goes_to_the_worker_from_the_reducer() {
        let (outbox, sent) = recording();
        let state = Rc::new(preset("range-imbalance").with_outbox(outbox));
        let edited = Rc::clone(&state).reduce(Action::Edit(Edit::AddConsumer));
        let versions = |jobs: &[Job]| jobs.iter().map(|j| j.version).collect::<Vec<_>>();
        let requests = sent.borrow().iter().map(|(jobs, keep)| (versions(jobs), keep.clone())).collect::<Vec<_>>();
        assert_eq!(requests, [(vec![edited.version()], edited.keep())]);
        let refused = Rc::clone(&edited).reduce(Action::Edit(Edit::Leave { consumer: 9 }));
        let bannered = refused.reduce(Action::Banner(Some("hello".into())));
        let answer = answer(&bannered).unwrap_or_else(|| panic!("no job"));
        let painted = bannered.reduce(Action::Computed(Box::new(answer)));
        assert!(!painted.pending());
        let viewed = Rc::clone(&painted).reduce(Action::SetView(scenario::View::default()));
        assert_eq!(sent.borrow().len(), 1, "{:?}", sent.borrow());
        // Undo to a step with its answer asks nothing; a second edit is one more request.
        viewed.reduce(Action::Undo).reduce(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 7 }));
        assert_eq!(sent.borrow().len(), 2);
    }

    /// Each request the reducer hands the worker: its jobs and the versions to keep.
    type Requests = Rc<RefCell<Vec<(Vec<Job>, Vec<Version>)>>>;

    fn recording() -> (Outbox, Requests) {
        let sent: Requests = Rc::default();
        let outbox = {
            let sent = Rc::clone(&sent);
            Outbox::new(move |jobs: Vec<Job>, keep, _| sent.borrow_mut().push((jobs, keep)))
        };
        (outbox, sent)
    }

    /// The worker's answer to `request`, as the page receives it.
    fn worker_answer((jobs, keep): &(Vec<Job>, Vec<Version>)) -> Box<Answer> {
        let answer = WORKER.with(|engine| engine.borrow_mut().compute(jobs.clone(), keep));
        Box::new(answer.unwrap_or_else(|| panic!("no answer to {jobs:?}")))
    }

    /// Once the first answer is painted, the workers compute an edit the person might make next,
    /// in rounds, each once the last one's answer is in; those answers change nothing on the page,
    /// not even the state's identity (nothing renders), and the worker keeps what the page needs.
    #[test]
    fn the_first_answer_painted_starts_the_warm_up_whose_answers_change_nothing() {
        let (outbox, sent) = recording();
        let first = scenario::presets::find("sticky-crash-c1").and_then(|p| p.scenario().ok()).unwrap_or_default();
        let state = Rc::new(State::new(first).with_outbox(outbox));
        let jobs = state.jobs().unwrap_or_default();
        let painted = Rc::clone(&state).reduce(Action::Computed(worker_answer(&(jobs, state.keep()))));
        assert!(!painted.pending());
        // An edit from the next edit's starting point: the scenario settled, one partition fewer
        // on its first topic, as typing that count would make it.
        let (settled, prior) = painted.step.settled();
        let typed = Edit::SetPartitions { topic: 0, partitions: settled.topics[0].partitions - 1 };
        let reference = the_old_way(&painted.scenario, std::slice::from_ref(&typed));
        let mut after = Rc::clone(&painted);
        for round in 0..WARM_UP_ROUNDS {
            assert_eq!(sent.borrow().len() as u64, round + 1);
            let warm_up = sent.borrow().last().cloned().unwrap_or_default();
            let (job, keep) = (&warm_up.0[0], &warm_up.1);
            assert_eq!((warm_up.0.len(), job.version), (1, WARM_UP - round));
            assert_eq!((&*job.scenario, job.prior), (&typed.apply(&settled).unwrap(), prior));
            assert_eq!(*keep, painted.keep());
            let answer = worker_answer(&warm_up);
            assert_eq!(answer.version, WARM_UP - round);
            // It rebalances as that edit would: its answer is that edit's, not the page's.
            assert_eq!(answer.computed, Computed::new(&Report::new(&reference), &reference));
            assert_ne!(answer.computed, *painted.shown);
            after = Rc::clone(&after).reduce(Action::Computed(answer));
            assert!(Rc::ptr_eq(&after, &painted));
        }
        // The last round's answer asks for no other.
        assert_eq!(sent.borrow().len() as u64, WARM_UP_ROUNDS);
        // An edit now is computed as ever.
        let edited = after.reduce(Action::Edit(Edit::AddConsumer));
        let request = sent.borrow().last().cloned().unwrap_or_default();
        assert_eq!(request.0.iter().map(|j| j.version).collect::<Vec<_>>(), [edited.version()]);
        let answered = Rc::clone(&edited).reduce(Action::Computed(worker_answer(&request)));
        assert_eq!(sent.borrow().len() as u64, WARM_UP_ROUNDS + 1);
        let reference = the_old_way(&painted.scenario, &[Edit::AddConsumer]);
        assert_eq!(*answered.shown, Computed::new(&Report::new(&reference), &reference));
    }

    /// Once the person edits, the warm-up stops: a round's answer that comes after the edit asks
    /// for no other (the workers are the edit's).
    #[test]
    fn an_edit_stops_the_warm_up() {
        let (outbox, sent) = recording();
        let scenario = scenario::presets::find("range-imbalance").and_then(|p| p.scenario().ok()).unwrap_or_default();
        let first = Rc::new(State::new(scenario).with_outbox(outbox));
        let jobs = first.jobs().unwrap_or_default();
        let painted = Rc::clone(&first).reduce(Action::Computed(worker_answer(&(jobs, first.keep()))));
        let warm_up = sent.borrow()[0].clone();
        let edited = painted.reduce(Action::Edit(Edit::AddConsumer));
        let late = worker_answer(&warm_up);
        let after = Rc::clone(&edited).reduce(Action::Computed(late));
        assert!(Rc::ptr_eq(&after, &edited));
        // The first round, then the edit: nothing more.
        let versions: Vec<Vec<Version>> =
            sent.borrow().iter().map(|(jobs, _)| jobs.iter().map(|j| j.version).collect()).collect();
        assert_eq!(versions, [vec![WARM_UP], vec![edited.version()]]);
    }

    /// A group without a partition warms up on itself, unchanged: there is no count to lower.
    #[test]
    fn a_group_without_partitions_warms_up_unchanged() {
        let (outbox, sent) = recording();
        let state = Rc::new(State::new(big(0)).with_outbox(outbox));
        let jobs = state.jobs().unwrap_or_default();
        let painted = Rc::clone(&state).reduce(Action::Computed(worker_answer(&(jobs, state.keep()))));
        let warm_up = sent.borrow()[0].0[0].clone();
        assert_eq!((warm_up.version, &*warm_up.scenario), (WARM_UP, &*painted.step.settled().0));
    }

    /// A group whose settled assignment stays in the worker gets no warm-up: its rebalance is no
    /// longer a few milliseconds.
    #[test]
    fn a_big_group_gets_no_warm_up() {
        let (outbox, sent) = recording();
        let state = Rc::new(State::new(big(6_000)).with_outbox(outbox));
        let jobs = state.jobs().unwrap_or_default();
        let painted = Rc::clone(&state).reduce(Action::Computed(worker_answer(&(jobs, state.keep()))));
        assert!(!painted.pending());
        assert!(sent.borrow().is_empty());
    }

    /// An answer that an edit overtook changes nothing: the same state, so nothing renders.
    #[test]
    fn an_overtaken_answer_leaves_the_state_as_it_was() {
        let state = Rc::new(preset("range-imbalance"));
        let two = Rc::clone(&state).reduce(Action::Edit(Edit::AddConsumer));
        let late = worker_answer(&(two.jobs().unwrap_or_default(), two.keep()));
        let three = two.reduce(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 7 }));
        let after = Rc::clone(&three).reduce(Action::Computed(late));
        assert!(Rc::ptr_eq(&after, &three));
    }

    /// A group of `partitions` partitions on one topic and three consumers.
    fn big(partitions: u32) -> Scenario {
        Scenario {
            topics: vec![scenario::TopicSpec::new("big", partitions)],
            consumers: ["C0", "C1", "C2"].iter().map(|id| scenario::ConsumerSpec::new(*id, &["big"])).collect(),
            ..Scenario::default()
        }
    }

    #[test]
    fn a_big_group_refers_to_the_settled_assignment_the_worker_keeps() {
        let state = answered(State::new(big(6_000)));
        let edits =
            [Edit::AddConsumer, Edit::SetPartitions { topic: 0, partitions: 6_001 }, Edit::Leave { consumer: 0 }];
        let mut now = state.clone();
        for edit in &edits {
            now = now.act(Action::Edit(edit.clone()));
            // 24,000 entries do not cross: the page holds the group without its previous assignment.
            assert_eq!(now.scenario.previous, None);
            assert!(matches!(now.step.prior, Prior::Settled(v) if v + 1 == now.version()));
        }
        let reference = the_old_way(&state.scenario, &edits);
        assert_eq!(*now.shown, Computed::new(&Report::new(&reference), &reference));
        assert_eq!(*now.scenario, Scenario { previous: None, ..reference });
        // Undo and redo ask nothing of the worker: each step kept its answer.
        let undone = now.apply(Action::Undo);
        assert!(!undone.pending());
        assert!(undone.apply(Action::Redo).jobs().is_none());
    }

    /// A big group's link, save and export are written by the worker from the step's prior: it is
    /// kept as long as the step is reachable, answered or not.
    #[test]
    fn a_big_group_keeps_the_prior_each_step_is_written_from() {
        let first = answered(State::new(big(6_000)));
        let joined = first.act(Action::Edit(Edit::AddConsumer));
        let grown = joined.act(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 6_001 }));
        assert_eq!(grown.prior(), Prior::Settled(joined.version()));
        assert_eq!(grown.keep(), [first.version(), joined.version(), grown.version()]);
        let undone = grown.apply(Action::Undo);
        assert_eq!(undone.prior(), Prior::Settled(first.version()));
        assert!(undone.keep().contains(&first.version()));
        let fresh = grown.act(Action::Forget);
        assert_eq!(fresh.prior(), Prior::Inline);
    }

    #[test]
    fn a_big_group_keeps_as_many_undo_steps_as_the_settled_budget_allows() {
        let mut state = State::new(big(1_000_000));
        for n in 0..10 {
            // Each edit of another field is an undo step; none is answered (they need not be).
            let edit = if n % 2 == 0 { Edit::AddConsumer } else { Edit::Leave { consumer: 0 } };
            state = state.apply(Action::Edit(edit));
            let entries = state.keep().len() * 4_000_000;
            assert!(entries <= work::SETTLED_BUDGET, "{entries} entries kept after {n} edits");
            assert!(state.can_undo());
        }
        assert_eq!(state.undo.len(), 1);
        // A small group keeps its hundred steps.
        let mut small = preset("range-imbalance");
        for n in 0..150 {
            small = small.apply(Action::Edit(if n % 2 == 0 { Edit::AddConsumer } else { Edit::Leave { consumer: 0 } }));
        }
        assert_eq!(small.undo.len(), UNDO_DEPTH);
    }

    /// Edits dispatched faster than the page renders reach the worker as one request: each
    /// version the last builds on goes with it, and is settled before it.
    #[test]
    fn edits_faster_than_the_answers_are_still_each_a_rebalance() {
        let state = preset("range-imbalance");
        let edits = [
            Edit::AddConsumer,
            Edit::SetPartitions { topic: 0, partitions: 7 },
            Edit::SetPartitions { topic: 1, partitions: 4 },
            Edit::SetPartitions { topic: 1, partitions: 5 },
        ];
        let last = edits.iter().fold(state.clone(), |s, e| s.apply(Action::Edit(e.clone())));
        // The last edit continues the one before (same field): three rebalances, three jobs.
        let jobs = last.jobs().unwrap_or_default();
        assert_eq!(jobs.iter().map(|j| j.version).collect::<Vec<_>>(), [2, 3, 5]);
        let painted = answered(last);
        let reference = the_old_way(
            &state.scenario,
            &[
                Edit::AddConsumer,
                Edit::SetPartitions { topic: 0, partitions: 7 },
                Edit::SetPartitions { topic: 1, partitions: 5 },
            ],
        );
        assert_eq!(*painted.shown, Computed::new(&Report::new(&reference), &reference));
        assert_eq!(*painted.scenario, reference);
    }

    /// A page whose outbox holds small groups' edits (`app.rs`): the requests it sends and how
    /// many releases it asked for.
    fn holding(scenario: Scenario) -> (Rc<State>, Requests, Rc<RefCell<usize>>) {
        let (outbox, sent) = recording();
        let releases = Rc::new(RefCell::new(0));
        let outbox = outbox.holding({
            let releases = Rc::clone(&releases);
            move || {
                *releases.borrow_mut() += 1;
                true
            }
        });
        let state = Rc::new(State::new(scenario).with_outbox(outbox));
        let first = worker_answer(&(state.jobs().unwrap_or_default(), state.keep()));
        let painted = Rc::clone(&state).reduce(Action::Computed(first));
        assert!(!painted.pending() && !Rc::ptr_eq(&painted, &state));
        // The first answer's warm-up round: answered before any edit here.
        let warm_up = sent.borrow_mut().pop().unwrap_or_else(|| panic!("no warm-up"));
        WORKER.with(|engine| engine.borrow_mut().compute(warm_up.0, &warm_up.1));
        (painted, sent, releases)
    }

    /// A small group's edit from the answer on screen is held back: the page renders nothing (the
    /// same state) until its answer, which renders the edit and the answer at once; the job went
    /// to the worker from the reducer all the same.
    #[test]
    fn a_small_groups_edit_is_rendered_with_its_answer() {
        let (painted, sent, releases) = holding(preset("range-imbalance").scenario.as_ref().clone());
        let edit = Edit::SetPartitions { topic: 0, partitions: 7 };
        let held = Rc::clone(&painted).reduce(Action::Edit(edit.clone()));
        assert!(Rc::ptr_eq(&held, &painted), "nothing renders while the answer is on its way");
        assert_eq!(*releases.borrow(), 1);
        let request = sent.borrow().last().cloned().unwrap_or_else(|| panic!("no request"));
        let version = request.0.last().map(|j| j.version).unwrap_or_default();
        assert!(version > painted.version());
        let answered = held.reduce(Action::Computed(worker_answer(&request)));
        assert_eq!((answered.version(), answered.shown_version, answered.pending()), (version, version, false));
        let reference = the_old_way(&painted.scenario, std::slice::from_ref(&edit));
        assert_eq!(*answered.scenario, reference);
        assert_eq!(*answered.shown, Computed::new(&Report::new(&reference), &reference));
        assert!(answered.can_undo());
        // The release that comes after renders nothing.
        let after = Rc::clone(&answered).reduce(Action::Release);
        assert!(Rc::ptr_eq(&after, &answered));
    }

    /// An edit held past `HOLD_MS` is rendered busy by the release, and its answer painted when it
    /// comes; an answer for no scenario on screen (the warm-up's, an overtaken one) keeps it held.
    #[test]
    fn an_edit_whose_answer_is_late_is_rendered_busy_by_the_release() {
        let (painted, sent, _) = holding(preset("range-imbalance").scenario.as_ref().clone());
        let held = Rc::clone(&painted).reduce(Action::Edit(Edit::AddConsumer));
        let request = sent.borrow().last().cloned().unwrap_or_else(|| panic!("no request"));
        let version = request.0.last().map(|j| j.version).unwrap_or_default();
        let stale = Box::new(Answer { version: WARM_UP, ..Answer::default() });
        let still = Rc::clone(&held).reduce(Action::Computed(stale));
        assert!(Rc::ptr_eq(&still, &painted));
        let released = still.reduce(Action::Release);
        assert_eq!(
            (released.version(), released.pending(), released.shown_version),
            (version, true, painted.version())
        );
        assert!(Rc::ptr_eq(&released.shown, &painted.shown), "the last answer, dimmed");
        let answered = released.reduce(Action::Computed(worker_answer(&request)));
        assert_eq!((answered.version(), answered.pending()), (version, false));
    }

    /// An edit made while one is held is rendered at once, busy: it builds on the held one (both
    /// are rebalances, one undo step each), and the page shows that its answer is pending.
    #[test]
    fn an_edit_while_one_is_held_is_rendered_busy_and_builds_on_it() {
        let (painted, sent, releases) = holding(preset("range-imbalance").scenario.as_ref().clone());
        let first = Edit::AddConsumer;
        let second = Edit::SetPartitions { topic: 0, partitions: 7 };
        let held = Rc::clone(&painted).reduce(Action::Edit(first.clone()));
        let shown = Rc::clone(&held).reduce(Action::Edit(second.clone()));
        assert!(!Rc::ptr_eq(&shown, &painted));
        assert!(shown.pending());
        assert_eq!(*releases.borrow(), 1, "only the first was held");
        let request = sent.borrow().last().cloned().unwrap_or_else(|| panic!("no request"));
        assert_eq!(request.0.iter().map(|j| j.version).collect::<Vec<_>>(), [shown.version() - 1, shown.version()]);
        let answered = shown.reduce(Action::Computed(worker_answer(&request)));
        assert_eq!(*answered.scenario, the_old_way(&painted.scenario, &[first, second]));
        let undone = answered.reduce(Action::Undo);
        assert_eq!(*undone.scenario, the_old_way(&painted.scenario, &[Edit::AddConsumer]));
    }

    /// A big group's edit is not held: its answer takes far longer than a frame.
    #[test]
    fn a_big_groups_edit_is_rendered_at_once() {
        let (painted, _, releases) = holding(big(0));
        let painted = Rc::clone(&painted).reduce(Action::Edit(Edit::SetPartitions { topic: 0, partitions: 6_000 }));
        assert!(painted.pending());
        assert_eq!(*releases.borrow(), 0);
    }

    /// The last request the workers were handed, and the version of its job.
    fn last_request(sent: &Requests) -> ((Vec<Job>, Vec<Version>), Version) {
        let request = sent.borrow().last().cloned().unwrap_or_else(|| panic!("no request"));
        let version = request.0.last().map(|j| j.version).unwrap_or_default();
        (request, version)
    }

    /// The same edit made the ordinary way on a page of its own (held, then answered): what a
    /// draft's adopted answer must equal.
    fn made_the_ordinary_way(scenario: &Scenario, edit: &Edit) -> Rc<State> {
        let (painted, sent, _) = holding(scenario.clone());
        let held = painted.reduce(Action::Edit(edit.clone()));
        let (request, _) = last_request(&sent);
        held.reduce(Action::Computed(worker_answer(&request)))
    }

    /// A count typed is computed ahead, as the edit that applies it would be (its version, its
    /// job), and renders nothing; nor does its answer, which is laid out ahead a moment later
    /// (`LayOutAhead`: the results region alone renders, the store's readers see the same
    /// state). The edit that applies it then renders with that very answer at once: no request,
    /// no hold, and the same scenario, answer and settled assignment as the edit made the
    /// ordinary way (sticky and cooperative-sticky start from the previous assignment).
    #[test]
    fn a_drafts_answer_is_adopted_by_the_edit_that_applies_it() {
        let presets = ["sticky-crash-c1", "range-imbalance", "cooperative-upgrade", "consumer-protocol-uniform"];
        let edits =
            [Edit::SetPartitions { topic: 0, partitions: 9 }, Edit::SetReplicationFactor { topic: 0, factor: 2 }];
        for (id, edit) in presets.iter().flat_map(|id| edits.iter().map(move |edit| (*id, edit.clone()))) {
            let scenario = preset(id).scenario.as_ref().clone();
            let (painted, sent, releases) = holding(scenario.clone());
            let before = sent.borrow().len();
            let drafted = Rc::clone(&painted).reduce(Action::Draft(Some(edit.clone())));
            assert!(Rc::ptr_eq(&drafted, &painted), "{id}: a draft renders nothing");
            assert_eq!(sent.borrow().len(), before + 1, "{id}: the draft's job");
            let (request, version) = last_request(&sent);
            assert!(version > painted.version());
            let early = Rc::clone(&drafted).reduce(Action::LayOutAhead);
            assert!(Rc::ptr_eq(&early, &painted) && early.ahead().is_none(), "{id}: no answer to lay out yet");
            let still = drafted.reduce(Action::Computed(worker_answer(&request)));
            assert!(Rc::ptr_eq(&still, &painted), "{id}: its answer renders nothing");
            assert!(still.ahead().is_none(), "{id}: not laid out yet");
            let laid = still.reduce(Action::LayOutAhead);
            assert!(
                *laid == *painted && laid.version() == painted.version(),
                "{id}: the store's readers see nothing new"
            );
            let Some(ahead) = laid.ahead() else { panic!("{id}: the draft's answer, laid out ahead") };
            let applied = laid.reduce(Action::Edit(edit.clone()));
            assert!(Rc::ptr_eq(&applied.shown, &ahead), "{id}: the answer laid out ahead is the one shown");
            assert_eq!(
                (applied.version(), applied.shown_version, applied.pending()),
                (version, version, false),
                "{id}"
            );
            assert_eq!(sent.borrow().len(), before + 1, "{id}: nothing more asked");
            assert_eq!(*releases.borrow(), 0, "{id}: nothing held");
            let ordinary = made_the_ordinary_way(&scenario, &edit);
            assert_eq!(*applied.scenario, *ordinary.scenario, "{id}");
            assert_eq!(applied.shown, ordinary.shown, "{id}");
            assert_eq!(applied.step.settled, ordinary.step.settled, "{id}");
            assert_eq!(*applied.scenario, the_old_way(&painted.scenario, std::slice::from_ref(&edit)), "{id}");
            assert!(applied.can_undo());
            assert!(Rc::ptr_eq(&applied.reduce(Action::Undo).scenario, &painted.scenario), "{id}: one undo step");
        }
    }

    /// The edit applying a draft whose answer is still on its way is held for it, its job sent
    /// again under the draft's version (the workers computing it do not compute it twice).
    #[test]
    fn a_draft_applied_before_its_answer_waits_for_it() {
        let (painted, sent, releases) = holding(preset("sticky-crash-c1").scenario.as_ref().clone());
        let edit = Edit::SetPartitions { topic: 0, partitions: 2 };
        let drafted = Rc::clone(&painted).reduce(Action::Draft(Some(edit.clone())));
        let (draft_request, version) = last_request(&sent);
        let held = drafted.reduce(Action::Edit(edit.clone()));
        assert!(Rc::ptr_eq(&held, &painted), "held for its answer");
        assert_eq!(*releases.borrow(), 1);
        let (request, again) = last_request(&sent);
        assert_eq!((again, &request.0), (version, &draft_request.0), "the same job");
        let answered = held.reduce(Action::Computed(worker_answer(&draft_request)));
        assert_eq!((answered.version(), answered.pending()), (version, false));
        assert_eq!(answered.shown, made_the_ordinary_way(&painted.scenario, &edit).shown);
    }

    /// A draft then a different edit: the draft's answer is never painted, and the edit gets a
    /// version of its own, above the draft's, and its own answer. So do a newer draft, and a draft
    /// dropped (Escape) before the same edit is made.
    #[test]
    fn a_draft_not_applied_leaves_nothing_behind() {
        let scenario = preset("sticky-crash-c1").scenario.as_ref().clone();
        let (seven, eight) =
            (Edit::SetPartitions { topic: 0, partitions: 7 }, Edit::SetPartitions { topic: 0, partitions: 8 });
        for (drafts, edit) in [
            (vec![Some(seven.clone())], eight.clone()),
            (vec![Some(seven.clone()), None], seven.clone()),
            (vec![Some(seven.clone()), Some(eight.clone())], seven.clone()),
            (vec![Some(seven.clone())], Edit::AddConsumer),
        ] {
            let (painted, sent, _) = holding(scenario.clone());
            let mut state = Rc::clone(&painted);
            for draft in &drafts {
                state = state.reduce(Action::Draft(draft.clone()));
            }
            let (draft_request, draft_version) = last_request(&sent);
            let draft_answer = worker_answer(&draft_request);
            let held = state.reduce(Action::Edit(edit.clone()));
            assert!(Rc::ptr_eq(&held, &painted), "{drafts:?}: held");
            let (request, version) = last_request(&sent);
            assert!(version > draft_version, "{drafts:?}: a version of its own");
            assert_ne!(request.0, draft_request.0);
            let still = held.reduce(Action::Computed(draft_answer));
            assert!(Rc::ptr_eq(&still, &painted), "{drafts:?}: the draft's answer is stale");
            assert!(still.ahead().is_none(), "{drafts:?}: nothing laid out ahead");
            let answered = still.reduce(Action::Computed(worker_answer(&request)));
            assert_eq!((answered.version(), answered.pending()), (version, false));
            let ordinary = made_the_ordinary_way(&scenario, &edit);
            assert_eq!(*answered.scenario, *ordinary.scenario, "{drafts:?}");
            assert_eq!(answered.shown, ordinary.shown, "{drafts:?}");
        }
    }

    /// The answer laid out ahead is the newest draft's, of the state on screen: a newer draft
    /// keeps the copy laid out until its own answer is (nothing renders meanwhile), Escape (no
    /// draft) or any other action drops it, and an answer of a draft no longer kept lays out
    /// nothing.
    #[test]
    fn only_the_newest_drafts_answer_is_laid_out_ahead() {
        let (seven, eight) =
            (Edit::SetPartitions { topic: 0, partitions: 7 }, Edit::SetPartitions { topic: 0, partitions: 8 });
        let (painted, sent, _) = holding(preset("sticky-crash-c1").scenario.as_ref().clone());
        let drafted = Rc::clone(&painted).reduce(Action::Draft(Some(seven.clone())));
        let (seven_request, _) = last_request(&sent);
        let seven_in = drafted.reduce(Action::Computed(worker_answer(&seven_request))).reduce(Action::LayOutAhead);
        let Some(seven_ahead) = seven_in.ahead() else { panic!("seven's answer, laid out ahead") };
        assert!(Rc::ptr_eq(&Rc::clone(&seven_in).reduce(Action::LayOutAhead), &seven_in), "laid out once");
        // A newer draft renders nothing: the copy laid out stays for its answer.
        let newer = Rc::clone(&seven_in).reduce(Action::Draft(Some(eight.clone())));
        assert!(Rc::ptr_eq(&newer, &seven_in) && newer.ahead().is_none());
        let (eight_request, _) = last_request(&sent);
        let late =
            Rc::clone(&newer).reduce(Action::Computed(worker_answer(&seven_request))).reduce(Action::LayOutAhead);
        assert!(Rc::ptr_eq(&late, &newer) && late.ahead().is_none(), "seven's answer again: not the draft's");
        let eight_in = late.reduce(Action::Computed(worker_answer(&eight_request))).reduce(Action::LayOutAhead);
        let Some(eight_ahead) = eight_in.ahead() else { panic!("eight's answer, laid out ahead") };
        assert!(!Rc::ptr_eq(&eight_ahead, &seven_ahead));
        // Escape: no draft, nothing ahead, the region renders to drop it.
        let escaped = Rc::clone(&eight_in).reduce(Action::Draft(None));
        assert!(!Rc::ptr_eq(&escaped, &eight_in) && *escaped == *eight_in && escaped.ahead().is_none());
        assert!(Rc::ptr_eq(&escaped.clone().reduce(Action::Draft(None)), &escaped), "nothing to drop: nothing renders");
        // Any other action drops it too (here a view change), and applying the draft then is an
        // edit of its own.
        let again = escaped.reduce(Action::Draft(Some(eight.clone())));
        let (request, _) = last_request(&sent);
        let again_in = again.reduce(Action::Computed(worker_answer(&request))).reduce(Action::LayOutAhead);
        assert!(again_in.ahead().is_some());
        let view = scenario::View { diff: !again_in.scenario.view.diff, ..again_in.scenario.view.clone() };
        let viewed = again_in.reduce(Action::SetView(view));
        assert!(viewed.ahead().is_none() && !viewed.drafting());
        let before = sent.borrow().len();
        let _held = viewed.reduce(Action::Edit(eight));
        assert_eq!(sent.borrow().len(), before + 1, "computed again, not adopted");
    }

    /// What is not computed ahead: a draft the reducer would refuse, a big group's, one made while
    /// an edit is held or pending. None of them renders anything.
    #[test]
    fn only_a_valid_draft_of_a_small_group_on_screen_is_computed_ahead() {
        let (painted, sent, _) = holding(preset("range-imbalance").scenario.as_ref().clone());
        let before = sent.borrow().len();
        let refused = Rc::clone(&painted).reduce(Action::Draft(Some(Edit::SetPartitions { topic: 9, partitions: 3 })));
        assert!(Rc::ptr_eq(&refused, &painted));
        let huge = Edit::SetPartitions { topic: 0, partitions: 1_000_000 };
        let refused = refused.reduce(Action::Draft(Some(huge)));
        assert!(Rc::ptr_eq(&refused, &painted));
        assert_eq!(sent.borrow().len(), before, "nothing sent");
        let held = refused.reduce(Action::Edit(Edit::AddConsumer));
        let during = Rc::clone(&held).reduce(Action::Draft(Some(Edit::SetPartitions { topic: 0, partitions: 3 })));
        assert!(Rc::ptr_eq(&during, &painted));
        assert_eq!(sent.borrow().len(), before + 1, "the edit's job only");
        let (outbox, sent) = recording();
        let state = Rc::new(State::new(big(6_000)).with_outbox(outbox.holding(|| true)));
        let first = worker_answer(&(state.jobs().unwrap_or_default(), state.keep()));
        let painted = state.reduce(Action::Computed(first));
        let before = sent.borrow().len();
        let drafted =
            Rc::clone(&painted).reduce(Action::Draft(Some(Edit::SetPartitions { topic: 0, partitions: 6_001 })));
        assert!(Rc::ptr_eq(&drafted, &painted));
        assert_eq!(sent.borrow().len(), before, "a big group's is not");
    }

    /// A draft stops the warm-up: its next round is not sent once a draft is computed ahead.
    #[test]
    fn a_draft_stops_the_warm_up() {
        let (outbox, sent) = recording();
        let outbox = outbox.holding(|| true);
        let state = Rc::new(State::new(preset("range-imbalance").scenario.as_ref().clone()).with_outbox(outbox));
        let first = worker_answer(&(state.jobs().unwrap_or_default(), state.keep()));
        let painted = Rc::clone(&state).reduce(Action::Computed(first));
        let (warm_up, round) = last_request(&sent);
        assert_eq!(warm_up_round(round), Some(0));
        let drafted = painted.reduce(Action::Draft(Some(Edit::SetPartitions { topic: 0, partitions: 4 })));
        let count = sent.borrow().len();
        drafted.reduce(Action::Computed(worker_answer(&warm_up)));
        assert_eq!(sent.borrow().len(), count, "no next round");
    }
}
