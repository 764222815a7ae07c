//! The page: where the state lives, how it starts (link, saved work or the first preset), and the
//! effects that keep the URL and storage in step with it.

use std::cell::RefCell;
use std::rc::Rc;

use assignor::Strategy;
use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use playground::computed::Computed;
use playground::work::{Job, Reading, Text, Version};
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::browser;
use crate::state::{handed_over_at_once, Action, Errand, Outbox, State, AHEAD_WAIT_MS, HOLD_MS};
use crate::ui::ahead::{Copies, ViewChanges};
use crate::ui::config::{ConfigSection, Consumers};
use crate::ui::consumer_protocol::{ConsumerProtocolResults, ProtocolEditor};
use crate::ui::editors::{ConsumersEditor, EventsBar, TopicsEditor};
use crate::ui::explain::{StepAnswer, WalkSource};
use crate::ui::import::ImportSource;
use crate::ui::intro::Intro;
use crate::ui::panel::{Answer, MemberSource, StrategyPanel, Unanswered};
use crate::ui::reveal::{use_reveal, Growth};
use crate::ui::saved::{Keeper, RecentScenarios, SavedBanners, Status, StatusAction, UnsavedBanner};
use crate::ui::share::{ShareBar, Writer};
use crate::ui::weights::WeightsEditor;
use crate::ui::{Presets, Same, Store};
use playground::saved::{self, Origin, Unsaved};

/// How long the URL and the saved work wait after an edit's answer is painted before they are
/// written (then in an idle moment: encoding compresses the whole scenario).
const URL_DELAY_MS: u32 = 300;
/// How long they wait for an answer that does not come (a worker that stopped must not leave the
/// work unsaved); an answer painted meanwhile brings them forward to [`URL_DELAY_MS`].
const PENDING_URL_DELAY_MS: u32 = 3_000;

/// The longest a big group's new version waits for the page to be idle after the edit's frame (and
/// the opening's first version, and its warm-up, after the frames they wait for).
const HAND_OVER_WAIT_MS: f64 = 50.0;

/// The longest the opening's first panels wait after their answer (`Results`).
const FIRST_PANELS_WAIT_MAX_MS: f64 = 100.0;

/// How a new version reaches the compute workers. A small group's goes at once, from the reducer:
/// its answer can be in the frame after the edit's. A big group's (one whose settled assignment
/// the workers keep, `work::INLINE_ENTRIES`) goes once the page is idle after the edit's own
/// frame, at most [`HAND_OVER_WAIT_MS`] later: its rebalance keeps both workers busy for hundreds
/// of milliseconds, every core of a two-core machine, and the edit's render, layout and paint,
/// sharing the cores with them, took twice their time (issue 9: no block over 50 ms at 100,000
/// partitions). Its answer comes that frame later.
///
/// It also releases a small group's edit that the reducer holds back for its answer
/// (`state::Outbox::holding`) if the answer has not come [`HOLD_MS`] later.
#[derive(Default)]
struct Courier {
    worker: Option<browser::ComputeWorker>,
    /// A big group's version waiting for that idle moment: the newest replaces it (its jobs
    /// include every unanswered version it builds on).
    waiting: Rc<RefCell<Option<Handed>>>,
    /// Dispatches `Action::Release` (set once the store exists).
    release: Option<Callback<()>>,
    /// The release of the edit held, if one is: a new hold replaces (cancels) it.
    release_timer: RefCell<Option<Timeout>>,
    /// Dispatches `Action::LayOutAhead` (set once the store exists).
    lay_out: Option<Callback<()>>,
    /// The draft's answer's wait to be laid out ahead, if one waits: a newer one replaces it.
    lay_out_timer: RefCell<Option<Timeout>>,
    /// The link and saved-work writes asked for (the effect below): a new version counts as one,
    /// so that a write waiting for the edits to pause is skipped once an edit comes, held or not
    /// (a held edit renders nothing, so the effect does not run for it; its write, in the lead
    /// worker, would delay the edit's answer).
    writes: Rc<RefCell<u64>>,
    /// The warm-up's round asked for before the results region first showed every section: it
    /// waits for that (the first answer starts the warm-up while the Configuration and the panels
    /// still come a frame each, and its rounds, their answers and V8's compiles of the code they
    /// run shared the cores with those frames; issue 9). A newer version replaces it.
    parked: Rc<RefCell<Option<Handed>>>,
    /// Whether the results region has shown every section once.
    region_whole: bool,
}

/// A version's jobs and the versions the workers must keep, as the reducer hands them over.
type Handed = (Vec<Job>, Vec<Version>);

impl Courier {
    /// Hands over a new version's `jobs` and the versions the workers must `keep`.
    fn hand_over(&self, jobs: Vec<Job>, keep: Vec<Version>, errand: Errand) {
        // Not a draft's: one dropped (Escape) would leave the scenario on screen unwritten.
        if errand == Errand::Version {
            *self.writes.borrow_mut() += 1;
        }
        let Some(worker) = &self.worker else { return };
        if errand == Errand::WarmUp && !self.region_whole {
            *self.parked.borrow_mut() = Some((jobs, keep));
            return;
        }
        self.parked.borrow_mut().take();
        let big = jobs.last().is_some_and(|job| !handed_over_at_once(&job.scenario));
        if !big {
            self.waiting.borrow_mut().take();
            worker.want(jobs, keep);
            return;
        }
        if self.waiting.borrow_mut().replace((jobs, keep)).is_none() {
            let (worker, waiting) = (worker.clone(), Rc::clone(&self.waiting));
            browser::when_idle_within(HAND_OVER_WAIT_MS, move || {
                let next = waiting.borrow_mut().take();
                if let Some((jobs, keep)) = next {
                    worker.want(jobs, keep);
                }
            });
        }
    }

    /// Has the edit the reducer holds back released [`HOLD_MS`] from now, unless its answer comes
    /// first; `false` before the store exists.
    fn release_later(&self) -> bool {
        let Some(release) = self.release.clone() else { return false };
        *self.release_timer.borrow_mut() = Some(Timeout::new(HOLD_MS, move || release.emit(())));
        true
    }

    /// Has the draft's answer that just came laid out ahead [`AHEAD_WAIT_MS`] from now, unless
    /// the draft is applied or replaced first.
    fn lay_out_later(&self) {
        if let Some(lay_out) = self.lay_out.clone() {
            *self.lay_out_timer.borrow_mut() = Some(Timeout::new(AHEAD_WAIT_MS, move || lay_out.emit(())));
        }
    }

    /// Marks the results region whole (every section shown) and hands over the warm-up's round
    /// that waited for it, if one did.
    fn shown_whole(&mut self) {
        self.region_whole = true;
        let (Some(worker), parked) = (self.worker.clone(), Rc::clone(&self.parked)) else { return };
        // After the frame that drew the last section, not in its layout and paint; unless a newer
        // version took its place meanwhile.
        browser::when_idle_within(HAND_OVER_WAIT_MS, move || {
            let parked = parked.borrow_mut().take();
            if let Some((jobs, keep)) = parked {
                worker.want(jobs, keep);
            }
        });
    }

    /// Hands over the scenario on screen, if it waits for its answer and no newer version waits
    /// to be handed over: the page's first, which the reducer made before the worker started.
    fn catch_up(&self, jobs: Vec<Job>, keep: Vec<Version>) {
        if let (Some(worker), None) = (&self.worker, self.waiting.borrow().as_ref()) {
            worker.want(jobs, keep);
        }
    }
}

/// What the page opens on: the compute workers, started before the app, and the opening their
/// lead read (`main.rs`); `None` where the browser starts no worker.
#[derive(Clone, PartialEq, Properties)]
pub struct Opened {
    pub worker: Option<browser::ComputeWorker>,
    pub opened: Option<Rc<Result<playground::work::Opened, String>>>,
}

#[function_component]
pub fn App(opened: &Opened) -> Html {
    let embed = use_memo((), |_| browser::is_embed());
    // The link, the saved work or a preset; what the page says about the saved work.
    let first = use_memo((), |_| crate::ui::saved::opening(opened.opened.as_deref()));
    // The presets the opening brought, for the menu and the intro.
    let presets = use_memo((), {
        let first = Rc::clone(&first);
        move |_| Same(Rc::new(first.presets.clone()))
    });
    // The compute worker, once started, for the reducer to hand each new version to.
    let courier = use_mut_ref(Courier::default);
    let store = use_reducer({
        let (first, courier) = (Rc::clone(&first), Rc::clone(&courier));
        move || {
            let outbox = Outbox::new({
                let courier = Rc::clone(&courier);
                move |jobs, keep, errand| {
                    if let Ok(courier) = courier.try_borrow() {
                        courier.hand_over(jobs, keep, errand);
                    }
                }
            })
            .holding({
                let courier = Rc::clone(&courier);
                move || courier.try_borrow().is_ok_and(|courier| courier.release_later())
            })
            .laying_out_ahead(move || {
                if let Ok(courier) = courier.try_borrow() {
                    courier.lay_out_later();
                }
            });
            State::new(first.opening.scenario.clone()).apply(Action::Banner(first.problem.clone())).with_outbox(outbox)
        }
    });
    let keeper = {
        let (session, first) = (use_mut_ref(|| first.opening.session.clone()), Rc::clone(&first));
        Keeper::new(session, use_reducer(move || Status::new(&first.opening)), opened.worker.clone())
    };
    // The compute worker: its answers go to the reducer, which paints only the current version's.
    let worker = use_memo((), {
        let dispatcher = store.dispatcher();
        let worker = opened.worker.clone();
        move |_| {
            let failed = dispatcher.clone();
            worker.inspect(|worker| {
                worker.listen(
                    move |answer| dispatcher.dispatch(Action::Computed(Box::new(answer))),
                    move |why| failed.dispatch(Action::Banner(Some(why))),
                )
            })
        }
    });
    if courier.borrow().worker.is_none() {
        courier.borrow_mut().worker = worker.as_ref().clone();
    }
    if courier.borrow().release.is_none() {
        let dispatcher = store.dispatcher();
        courier.borrow_mut().release = Some(Callback::from(move |()| dispatcher.dispatch(Action::Release)));
    }
    if courier.borrow().lay_out.is_none() {
        let dispatcher = store.dispatcher();
        courier.borrow_mut().lay_out = Some(Callback::from(move |()| dispatcher.dispatch(Action::LayOutAhead)));
    }
    // Whether the page's editing column and the results' Configuration are in (`Results`; an
    // embed has neither), and the frame that drew them is over. The first version waits for it:
    // the workers' first rebalance, and V8's optimising compiles of their code that it sets off
    // (some 300 ms of CPU in a 1,000-partition group's opening, traced), took the two cores from
    // the opening's frames (issue 9).
    let opened = use_state_eq({
        let embed = *embed;
        move || embed
    });
    let on_opened = use_callback(opened.setter(), |(), opened| {
        let opened = opened.clone();
        browser::when_idle_within(HAND_OVER_WAIT_MS, move || opened.set(true));
    });
    // Told once the results region shows every section: the warm-up may start.
    let on_shown_whole = use_memo((), {
        let courier = Rc::clone(&courier);
        move |_| {
            Callback::from(move |()| {
                if let Ok(mut courier) = courier.try_borrow_mut() {
                    courier.shown_whole();
                }
            })
        }
    });
    {
        // Each scenario on screen that has no answer yet goes to the worker (latest wins): the
        // first, which the reducer made before the worker started; the reducer hands over the
        // others itself, and handing one over again while the worker has it changes nothing.
        // The jobs and what to keep are worked out only when the effect runs, not at every render.
        let (courier, state) = (Rc::clone(&courier), store.clone());
        use_effect_with((store.version(), store.pending(), *opened), move |&(_, _, opened)| {
            if let Some(jobs) = state.jobs().filter(|_| opened) {
                courier.borrow().catch_up(jobs, state.keep());
            }
        });
    }
    // The scenario on screen, for listeners set up once.
    let latest = use_mut_ref(|| Rc::clone(&store.scenario));
    let url_timer = use_mut_ref(|| None::<Timeout>);
    use_effect_with(*embed, {
        let first = Rc::clone(&first);
        move |embed| {
            if !embed {
                crate::ui::saved::tidy(&first.orphans);
            }
        }
    });
    // Writes the scenario on screen whole for the link, the saved copy and Export JSON.
    let writer = use_memo((), {
        let worker = Rc::clone(&worker);
        move |_| Writer::new(worker)
    });
    {
        // Keep the link and the saved work in step with the scenario (never the embed's). Encoding
        // compresses the whole scenario and saving writes it whole: done once the edits pause and
        // the answer is painted, each in an idle moment of its own, never on an edit's way to the
        // screen. A write a newer scenario has overtaken is skipped.
        let (scenario, embed, keeper, latest) = (Rc::clone(&store.scenario), *embed, keeper.clone(), latest.clone());
        let writer = (*writer).clone();
        let writes = Rc::clone(&courier.borrow().writes);
        use_effect_with((scenario, store.prior(), store.pending()), move |(scenario, prior, pending)| {
            *latest.borrow_mut() = Rc::clone(scenario);
            // A big group's texts come from the worker, which holds its previous assignment.
            let (current, prior) = (Rc::clone(scenario), *prior);
            *writes.borrow_mut() += 1;
            let (this, writes) = (*writes.borrow(), Rc::clone(&writes));
            let delay = if *pending { PENDING_URL_DELAY_MS } else { URL_DELAY_MS };
            *url_timer.borrow_mut() = Some(Timeout::new(delay, move || {
                browser::when_idle(move || {
                    if *writes.borrow() != this {
                        return;
                    }
                    let written = Rc::clone(&current);
                    writer.write(&current, prior, move |texts| {
                        // Written for a scenario no longer on screen: the newer one is written after it.
                        if !Rc::ptr_eq(&latest.borrow(), &written) {
                            return;
                        }
                        match texts {
                            Ok(texts) => {
                                // A fragment no browser would open again is left out: the saved work
                                // reopens instead.
                                let fragment = &texts.fragment;
                                browser::replace_fragment(if fragment.len() <= scenario::link::MAX_FRAGMENT {
                                    fragment
                                } else {
                                    ""
                                });
                                if !embed {
                                    browser::when_idle(move || {
                                        if *writes.borrow() == this {
                                            keeper.save(&written, &texts.json);
                                        }
                                    });
                                }
                            }
                            // Never saved without its history: the work stays as last saved, and says so.
                            Err(why) if !embed => {
                                keeper.status.dispatch(StatusAction::Unsaved(Unsaved::NotWritten(why.to_string())))
                            }
                            Err(_) => {}
                        }
                    });
                });
            }));
        });
    }
    {
        // Ctrl+Z undoes an edit, Ctrl+Shift+Z (or Ctrl+Y) redoes it.
        let store = store.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                EventListener::new_with_options(&window, "keydown", options, move |event| {
                    let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    if !(key.ctrl_key() || key.meta_key()) {
                        return;
                    }
                    let action = match key.key().to_ascii_lowercase().as_str() {
                        "z" if key.shift_key() => Some(Action::Redo),
                        "z" => Some(Action::Undo),
                        "y" => Some(Action::Redo),
                        _ => None,
                    };
                    if let Some(action) = action {
                        key.prevent_default();
                        store.dispatch(action);
                    }
                })
            });
            move || drop(listener)
        });
    }
    {
        // A link pasted into the address bar of an open page changes only the fragment.
        let (store, keeper, writer, worker) = (store.clone(), keeper.clone(), (*writer).clone(), (*worker).clone());
        use_effect_with((), move |_| {
            let listener = web_sys::window().zip(worker).map(|(window, worker)| {
                let pasted = Rc::new(std::cell::Cell::new(0_u64));
                EventListener::new(&window, "hashchange", move |_| {
                    let fragment = browser::fragment();
                    if fragment.is_empty() || writer.wrote(&latest.borrow(), &fragment) {
                        return;
                    }
                    pasted.set(pasted.get() + 1);
                    let (this, pasted) = (pasted.get(), Rc::clone(&pasted));
                    let (store, keeper, latest) = (store.clone(), keeper.clone(), Rc::clone(&latest));
                    // Read by the worker (`Text::Link`), as the opening's link is.
                    worker.read(Text::Link(fragment), move |read| {
                        // A newer link was pasted while this one was read: that one opens.
                        if pasted.get() != this {
                            return;
                        }
                        let current = Rc::clone(&latest.borrow());
                        match read {
                            Ok(scenario) => {
                                // The work it replaces is kept, and offered back.
                                let previous = Rc::new(keeper.current(&current));
                                let opened = saved::title_of(&scenario);
                                keeper.begin(Origin::Link);
                                store.dispatch(Action::Load(scenario));
                                store.dispatch(Action::Banner(None));
                                keeper.status.dispatch(StatusAction::Previous(Some((previous, opened))));
                            }
                            Err(e) => store.dispatch(Action::Banner(Some(format!("{e}. Your work is unchanged.")))),
                        }
                    });
                })
            });
            move || drop(listener)
        });
    }
    // A big group's opened member: its partitions come from the report the worker keeps of the
    // version on screen (a new version, a new source: an opened member asks again).
    let details = use_memo(store.shown_version, {
        // After an undo, the worker computes that version again from its job.
        let (worker, again) = (Rc::clone(&worker), store.job_of(store.shown_version));
        move |&version| {
            MemberSource(Rc::new(move |request, answer: Answer| match worker.as_ref() {
                Some(worker) => worker
                    .member(version, request, again.clone(), move |detail| answer.emit(detail.map(|d| d.map(Rc::new)))),
                None => answer.emit(Err(Unanswered::NoWorker)),
            }))
        }
    });
    // A walkthrough's steps: recorded and stepped through by the worker too.
    let walks = use_memo((), {
        let worker = Rc::clone(&worker);
        move |_| {
            WalkSource(Rc::new(move |request, scenario, answer: StepAnswer| match worker.as_ref() {
                Some(worker) => worker.walk(request, scenario, move |frame| answer.emit(frame)),
                None => {
                    answer.emit(Err("The walkthrough cannot be computed: the compute worker did not start.".into()))
                }
            }))
        }
    });
    // A paste in the Import dialog: read by the worker, which runs the strategies it infers with.
    let imports = use_memo((), {
        let worker = Rc::clone(&worker);
        move |_| {
            ImportSource(Rc::new(move |request, answer: Callback<Reading>| match worker.as_ref() {
                Some(worker) => worker.import(request, move |reading| answer.emit(reading)),
                None => answer.emit(Reading {
                    groups: Vec::new(),
                    unread: Vec::new(),
                    outcome: Err("The paste cannot be read: the compute worker did not start.".into()),
                }),
            }))
        }
    });
    html! {
        <ContextProvider<Store> context={store.clone()}>
            <ContextProvider<Painted> context={Painted(Same(Rc::clone(&store.shown)), store.version(), store.pending(), store.ahead().map(Same))}>
                <ContextProvider<Keeper> context={keeper}>
                    <ContextProvider<MemberSource> context={(*details).clone()}>
                        <ContextProvider<Writer> context={(*writer).clone()}>
                            <ContextProvider<WalkSource> context={(*walks).clone()}>
                                <ContextProvider<ImportSource> context={(*imports).clone()}>
                                    <ContextProvider<Presets> context={(*presets).clone()}>
                                        if *embed {
                                            <EmbedView on_shown_whole={(*on_shown_whole).clone()} />
                                        } else {
                                            <Playground {on_opened} on_shown_whole={(*on_shown_whole).clone()} />
                                        }
                                    </ContextProvider<Presets>>
                                </ContextProvider<ImportSource>>
                            </ContextProvider<WalkSource>>
                        </ContextProvider<Writer>>
                    </ContextProvider<MemberSource>>
                </ContextProvider<Keeper>>
            </ContextProvider<Painted>>
        </ContextProvider<Store>>
    }
}

/// The editing column's parts, in the order the page reveals them (see [`Playground`]); after
/// them, a frame later, the results region's sections may start.
const EDITING_PARTS: usize = 3;
/// The part that shows the consumers editor, whose rows come a slice per frame after it.
const CONSUMERS_PART: usize = 2;

#[derive(Properties, PartialEq)]
struct PlaygroundProps {
    /// Told once the editing column and the results' Configuration are in.
    on_opened: Callback<()>,
    /// Told once the results region shows every section.
    on_shown_whole: Callback<()>,
}

/// The page opens in slices, one per animation frame (`use_reveal`): the header alone first, then
/// the editing column a part at a time (each editor's rows a slice per frame before the part after
/// it), then the results region's sections (which it holds back until the editors are
/// in), so that neither the page's first render, which runs with the first calls of its wasm, nor
/// any frame after it renders and lays out more than one part of the page in one task (issue 9: no
/// block over 50 ms, at any size). Once every part is in, it stays: edits re-render what they
/// change, as before.
#[function_component]
fn Playground(props: &PlaygroundProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    // Set once the consumers editor's rows (its first window) are all in, never unset: the parts
    // after it wait for them, so that no frame renders both.
    let rows_in = use_state_eq(|| false);
    let on_rows_in = use_callback(rows_in.setter(), |(), rows_in| rows_in.set(true));
    // The same for the topics editor's rows, which the consumers editor waits for.
    let topics_in = use_state_eq(|| false);
    let on_topics_in = use_callback(topics_in.setter(), |(), topics_in| topics_in.set(true));
    // Up to the topics editor, the consumers editor once its rows are in, then the rest once the
    // consumers' rows are: one part more a frame, each in the frame after the rows it waited for.
    let total = if *rows_in {
        EDITING_PARTS + 1
    } else if *topics_in {
        CONSUMERS_PART
    } else {
        1
    };
    let parts = use_reveal(total, 0, 1, Growth::Sliced);
    // Whether the header's actions are shown on a phone (wider windows always show them).
    let menu = use_state_eq(|| false);
    let toggle_menu = use_callback(menu.clone(), |_: MouseEvent, menu| menu.set(!**menu));
    let (header, menu_toggle) = (use_node_ref(), use_node_ref());
    use_menu_dismissal(&menu, &header, &menu_toggle);
    let dispatch = |action: fn() -> Action| {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(action()))
    };
    html! {
        <div class="app">
            <header ref={header} class={classes!("top", (*menu).then_some("open"))}>
                <h1>{ "Kafka Assignor Playground" }</h1>
                // On a phone the sticky header is this one row: its actions wait behind the button
                // (the CSS shows it there only), so scrolling keeps most of the screen for the group.
                <button type="button" ref={menu_toggle} class="menu-toggle" aria-expanded={menu.to_string()}
                    aria-controls="top-actions" onclick={toggle_menu}>{ "Menu" }</button>
                <div id="top-actions" class="top-actions">
                    <PresetPicker />
                    <RecentScenarios />
                    <div class="history" role="group" aria-label="history">
                        <button type="button" onclick={dispatch(|| Action::Undo)} disabled={!store.can_undo()} title="Ctrl+Z">{ "Undo" }</button>
                        <button type="button" onclick={dispatch(|| Action::Redo)} disabled={!store.can_redo()} title="Ctrl+Shift+Z">{ "Redo" }</button>
                        <button type="button" onclick={dispatch(|| Action::Forget)} title="treat the current group as a fresh group">{ "Fresh start" }</button>
                    </div>
                    <ShareBar />
                </div>
                <UnsavedBanner />
            </header>
            <Banner />
            <SavedBanners />
            <main class="layout">
                <div class="edit">
                    if parts > 0 {
                        <Intro />
                        <Fields><TopicsEditor on_revealed={on_topics_in} /></Fields>
                    }
                    if parts >= CONSUMERS_PART {
                        <Fields><ConsumersEditor on_revealed={on_rows_in} /></Fields>
                    }
                    if parts > 2 {
                        <Fields><ProtocolEditor /></Fields>
                        <Fields><WeightsEditor /></Fields>
                        <Fields><EventsBar /></Fields>
                    }
                </div>
                <Results embed=false ready={parts > EDITING_PARTS} on_opened={props.on_opened.clone()}
                    on_shown_whole={props.on_shown_whole.clone()} />
            </main>
        </div>
    }
}

/// The phone's Menu closes as a disclosure of actions should: on Escape, giving the focus back to
/// Menu, and on a tap or click outside the header. Not while a dialog opened from it is open: that
/// Escape is the dialog's (`dialog.rs`), and the dialog hangs from the open actions. The listeners
/// are set once and read the header as shown (its `open` class), so a key pressed right after Menu
/// finds them there.
#[hook]
fn use_menu_dismissal(menu: &UseStateHandle<bool>, header: &NodeRef, toggle: &NodeRef) {
    let (close, header, toggle) = (menu.setter(), header.clone(), toggle.clone());
    use_effect_with((), move |_| {
        // The open header, unless a dialog hangs from it.
        let open_header = move || {
            let header = header.cast::<web_sys::Element>()?;
            let open = header.matches(".open").ok()? && header.query_selector(".dialog").ok()?.is_none();
            open.then_some(header)
        };
        let listeners = web_sys::window().and_then(|w| w.document()).map(|document| {
            let escape = {
                let (close, open_header) = (close.clone(), open_header.clone());
                EventListener::new(&document, "keydown", move |event| {
                    let Some(key) = event.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                    // An Escape a field already used (a draft dropped) is not ours either.
                    if key.key() != "Escape" || key.default_prevented() {
                        return;
                    }
                    let Some(header) = open_header() else { return };
                    // The focus on an action the menu hides goes back to Menu.
                    let focus_inside = browser::focus_within(&header);
                    close.set(false);
                    if let Some(toggle) = toggle.cast::<web_sys::HtmlElement>().filter(|_| focus_inside) {
                        let _ = toggle.focus();
                    }
                })
            };
            let outside = EventListener::new(&document, "pointerdown", move |event| {
                let Some(header) = open_header() else { return };
                let inside = event
                    .target()
                    .is_some_and(|t| t.dyn_ref::<web_sys::Node>().is_some_and(|t| header.contains(Some(t))));
                if !inside {
                    close.set(false);
                }
            });
            [escape, outside]
        });
        move || drop(listeners)
    });
}

#[derive(Properties, PartialEq)]
struct EmbedProps {
    /// Told once the results region shows every section.
    on_shown_whole: Callback<()>,
}

#[function_component]
fn EmbedView(props: &EmbedProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    // The scenario written whole by the worker, as Share link writes it; the page alone until then.
    let written = crate::ui::share::use_written(true);
    let base = browser::page_base();
    let full = match written {
        Some(Ok(texts)) => scenario::link::url_with(&base, &texts.fragment, false),
        _ => base,
    };
    html! {
        <div class="app embed">
            <Banner />
            if !store.scenario.title.is_empty() {
                <p class="embed-title">{ store.scenario.title.clone() }</p>
            }
            <Results embed=true ready=true on_shown_whole={props.on_shown_whole.clone()} />
            <a class="open" href={full} target="_blank" rel="noopener">{ "Open in the Kafka Assignor Playground ↗" }</a>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ResultsProps {
    /// An embed shows the panels alone: no summary, no Configuration, no walkthrough.
    embed: bool,
    /// Whether the region's sections may appear: the page holds them back while it reveals the
    /// editing column (the region is busy until then).
    ready: bool,
    /// Told once every section is shown with an answer (the first time the region is not busy).
    on_shown_whole: Callback<()>,
    /// Told once the region is ready and its sections that need no answer (the Configuration) are
    /// in: the page's opening frames are over (none for an embed, which opens at once).
    #[prop_or_default]
    on_opened: Option<Callback<()>>,
}

/// The answer on screen, the version on screen, whether it waits for its answer and the answer of
/// the draft being typed: what the results region follows besides the store, whose equality leaves
/// the answers out (`State`'s `PartialEq`: an answer renders this region, not every component
/// reading the store).
#[derive(Clone, PartialEq)]
struct Painted(Same<Computed>, Version, bool, Option<Same<Computed>>);

/// The results region: busy, its panels dimmed, while the scenario on screen waits for its answer
/// (they show the last one painted meanwhile) and while its sections are still being rendered.
/// `data-version` is the scenario's version, `data-shown` the version whose answer is painted (for
/// tests and the performance script).
///
/// This is the one component of the region that reads the store: the sections get the answer
/// (compared by identity) and what else they show as props, so an edit, which changes the scenario
/// and makes the region busy, changes this element's attributes and re-renders no section. The
/// sections appear one per frame (`use_reveal`): the Configuration first, then each panel, so
/// neither the page's first render nor the first answer renders a big group's four panels in one
/// task.
#[function_component]
fn Results(props: &ResultsProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    // The page's source of opened members' partitions, handed to each copy of the panels but the
    // one swapped out, which keeps its own and renders nothing more (`ui::ahead::Copies`).
    let Some(source) = use_context::<MemberSource>() else { return html! {} };
    // Rendered again for each answer, which the store's context leaves out.
    let _painted = use_context::<Painted>();
    let shown = Same(Rc::clone(&store.shown));
    let scenario = &store.scenario;
    let strategies = strategies_shown(&scenario.view, &shown.0);
    let server = shown.0.consumer.as_ref().filter(|c| matches!(c.chosen, scenario::StrategyId::Server(_)));
    let server_panels = server.map_or(0, |c| c.panels.len());
    let config = usize::from(!props.embed);
    let sections = config + server_panels + strategies.len();
    // While the region opens, each panel comes in the frame after the last rows of the one before
    // it (a panel reveals its rows a slice per frame); once it was whole, a section shows with its
    // answer.
    let opened_whole = use_mut_ref(|| false);
    let opening = !*opened_whole.borrow();
    let panels_in = use_reducer(PanelsIn::default);
    let on_rows_in = use_callback(panels_in.dispatcher(), |(), panels_in| panels_in.dispatch(()));
    // At the opening the first answer's panels wait as long as the workers took for it, at most
    // FIRST_PANELS_WAIT_MAX_MS: V8 is still compiling (its optimising tier, on its own threads) the
    // workers' code that answer ran hot, on every core of a two-core machine, and the first panel's
    // frame beside it took up to 60 ms (issue 9: no block over 50 ms).
    let first_panels_due = use_state_eq(|| false);
    {
        let due = first_panels_due.clone();
        let answered = opening && store.shown_version != 0;
        let wait_ms = store.compute_ms.clamp(0.0, FIRST_PANELS_WAIT_MAX_MS) as u32;
        use_effect_with(answered, move |&answered| {
            let timer = answered.then(|| Timeout::new(wait_ms, move || due.set(true)));
            move || drop(timer)
        });
    }
    let allowed = match (opening, *first_panels_due) {
        (false, _) => sections,
        (true, true) => config + panels_in.0 + 1,
        (true, false) => config,
    };
    let growth = if opening { Growth::Sliced } else { Growth::AtOnce };
    let revealed = use_reveal(if props.ready { sections.min(allowed) } else { 0 }, 0, 1, growth);
    let rows_pending = opening && config + panels_in.0 < sections;
    let busy = store.pending() || !props.ready || revealed < sections || rows_pending;
    {
        let opened = props.ready && revealed >= config;
        use_effect_with((opened, props.on_opened.clone()), |(opened, on_opened)| {
            if let (true, Some(on_opened)) = (opened, on_opened) {
                on_opened.emit(());
            }
        });
    }
    {
        let whole = !busy && store.shown_version != 0;
        if whole {
            *opened_whole.borrow_mut() = true;
        }
        use_effect_with((whole, props.on_shown_whole.clone()), |(whole, on_shown_whole)| {
            if *whole {
                on_shown_whole.emit(());
            }
        });
    }
    let diff = scenario.view.diff;
    let panels = revealed.saturating_sub(config);
    // The draft's answer laid out ahead, once the region has opened (`ui::ahead`).
    let copies = use_mut_ref(Copies::default);
    let ahead = store.ahead().filter(|_| !props.embed && !opening);
    let settle = use_force_update();
    let unsettled = copies.borrow_mut().follow((&shown.0, &source), ahead, store.drafting());
    use_effect_with(unsettled, {
        let copies = Rc::clone(&copies);
        move |&unsettled| {
            if unsettled {
                // After this render's frame (an idle moment, at most 50 ms on).
                browser::when_idle_within(HAND_OVER_WAIT_MS, move || {
                    if copies.borrow_mut().settle() {
                        settle.force_update();
                    }
                });
            }
        }
    });
    let copies = copies.borrow();
    let copy = |key| {
        let copy = copies.slot(key, &shown.0, &source)?;
        let strategies = strategies_shown(&scenario.view, copy.shown);
        let inert = copy.inert;
        Some(html! {
            <div key={copy.key} ref={copy.node} class={classes!("panels-copy", copy.role)}
                {inert} aria-hidden={inert.then_some("true")}>
                <Panels shown={Same(Rc::clone(copy.shown))} {strategies} {diff} explain={!props.embed}
                    limit={panels.saturating_sub(server_panels)} on_rows_in={on_rows_in.clone()}
                    source={copy.source} changes={copy.changes} />
            </div>
        })
    };
    html! {
        <div class="results" aria-busy={busy.to_string()} data-version={store.version().to_string()} data-shown={store.shown_version.to_string()} data-compute-ms={crate::ui::fixed(store.compute_ms, 0)}>
            if !props.embed {
                <GroupSummary shown={shown.clone()} />
            }
            <Fields><ConsumerProtocolResults shown={shown.clone()} {diff} explain={!props.embed} limit={panels} on_rows_in={on_rows_in.clone()} /></Fields>
            <div class="panels-stack">{ copy(0) }{ copy(1) }</div>
            if revealed > 0 && !props.embed {
                <Fields><ConfigSection consumers={Consumers(Rc::clone(scenario))} /></Fields>
            }
        </div>
    }
}

/// The strategies whose panels `view` shows and `computed` has, in order.
fn strategies_shown(view: &scenario::View, computed: &Computed) -> Vec<Strategy> {
    view.shown()
        .into_iter()
        .filter(|s| computed.panels.iter().any(|d| d.panel == scenario::StrategyId::Classic(*s)))
        .collect()
}

/// How many panels have shown all the rows of their first render (each tells once).
#[derive(Default)]
struct PanelsIn(usize);

impl Reducible for PanelsIn {
    type Action = ();

    fn reduce(self: Rc<Self>, (): ()) -> Rc<Self> {
        Rc::new(PanelsIn(self.0.saturating_add(1)))
    }
}

#[function_component]
fn Banner() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let Some(message) = store.banner.clone() else { return html! {} };
    let dismiss = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Action::Banner(None)))
    };
    html! {
        <div class="banner" role="alert">
            <span>{ message }</span>
            <button type="button" onclick={dismiss}>{ "Dismiss" }</button>
        </div>
    }
}

#[function_component]
fn PresetPicker() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let keeper = use_context::<Keeper>();
    let all = use_context::<Presets>().map(|presets| presets.0).unwrap_or_default();
    let current = all.iter().position(|p| p.title == store.scenario.title);
    let onchange = {
        let (store, all, keeper) = (store.clone(), Rc::clone(&all), keeper.clone());
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let index = select.selected_index() - 1;
            let Some(preset) = usize::try_from(index).ok().and_then(|i| all.get(i)) else { return };
            // A new entry: the scenario it replaces is kept (Recent).
            if let Some(keeper) = &keeper {
                keeper.begin(Origin::Own);
            }
            store.dispatch(Action::Load(preset.scenario.clone()))
        })
    };
    html! {
        <label class="presets">
            <span class="sr-only">{ "Load a preset" }</span>
            <select {onchange}>
                <option selected={current.is_none()} disabled=true>{ "Presets…" }</option>
                { for all.iter().enumerate().map(|(i, p)| html! {
                    <option value={p.id.clone()} selected={current == Some(i)}>{ p.title.clone() }</option>
                }) }
            </select>
        </label>
    }
}

#[derive(Properties, PartialEq)]
struct SummaryProps {
    shown: Same<Computed>,
}

#[function_component]
fn GroupSummary(props: &SummaryProps) -> Html {
    let computed = &props.shown.0;
    html! {
        <section class="summary" aria-label="group summary">
            if !computed.errors.is_empty() {
                <ul class="problems" role="alert">
                    { for computed.errors.iter().map(|p| html! { <li class="error">{ p.clone() }</li> }) }
                </ul>
            }
            if let Some(choice) = &computed.choice {
                <p class="selection">
                    if let Some(strategy) = &choice.strategy {
                        { "The group uses " }<strong data-group-strategy={strategy.clone()}>{ strategy.clone() }</strong>
                        { format!(" ({}): {}.", choice.protocol, choice.reason) }
                    } else {
                        <span class="error">{ "The consumers share no strategy: the coordinator refuses them (INCONSISTENT_GROUP_PROTOCOL)." }</span>
                    }
                </p>
            }
            if !computed.advice.is_empty() || !computed.warnings.is_empty() {
                <ul class="advice">
                    { for computed.advice.iter().map(|a| html! { <li>{ a.clone() }</li> }) }
                    { for computed.warnings.iter().map(|p| html! { <li>{ p.clone() }</li> }) }
                </ul>
            }
            if computed.summarised() {
                <p class="note">{ format!("{} partitions, {} consumers: panels show each member's load; open a member to see its partitions.", computed.total_partitions, computed.members) }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct PanelsProps {
    /// The answer painted.
    shown: Same<Computed>,
    /// The strategies whose panels the view shows, in order.
    strategies: Vec<Strategy>,
    /// Whether the rebalance diff is shown.
    diff: bool,
    explain: bool,
    /// How many of the panels are rendered yet (`use_reveal`).
    limit: usize,
    /// Told when a panel's first rows are all in.
    on_rows_in: Callback<()>,
    /// Where opened members' partitions come from: the page's, or the one a copy swapped out kept.
    source: MemberSource,
    /// The copy of the panels these are (`ui::ahead`).
    changes: ViewChanges,
}

#[function_component]
fn Panels(props: &PanelsProps) -> Html {
    let shown = &props.shown.0;
    let chosen = shown.choice.as_ref().and_then(|c| c.strategy.clone());
    html! {
        <div class="panels">
            { for props.strategies.iter().take(props.limit).filter_map(|&strategy| {
                let digest = shown.panels.iter().find(|d| d.panel == scenario::StrategyId::Classic(strategy))?;
                Some(html! {
                    <Fields key={strategy.name()}>
                        <StrategyPanel digest={Rc::clone(digest)} details={props.source.clone()} changes={props.changes.clone()}
                            show_diff={props.diff} explain={props.explain} chosen={chosen.as_deref() == Some(strategy.name())}
                            on_rows_in={props.on_rows_in.clone()} />
                    </Fields>
                })
            }) }
        </div>
    }
}

/// A part of the page's form fields in a form of its own (laid out as if it were not there, never
/// submitted). Chromium's autofill reads the fields outside any form as one form, and parses it
/// again, on the browser's cores, each time fields are added anywhere in it (at most every 100 ms):
/// the opening adds its fields over some ten frames, and each parse of the page's 120 fields
/// took 50–90 ms of a core beside them (issue 9: no block over 50 ms). A form of its own is parsed
/// only when its own fields change, a form of one or two fields not at all.
#[function_component]
fn Fields(props: &FieldsProps) -> Html {
    let onsubmit = Callback::from(|e: SubmitEvent| e.prevent_default());
    html! { <form class="fields" {onsubmit}>{ props.children.clone() }</form> }
}

#[derive(Properties, PartialEq)]
struct FieldsProps {
    children: Html,
}
