//! One panel — a classic strategy's, or a server-side assignor's on the consumer protocol (KIP-848)
//! — rendered from its [`PanelDigest`] alone: the balance figures, each member's row (its load bar,
//! its rack and, below the chip limit, its partitions as chips coloured by topic), the rebalance diff
//! and its rounds (a server panel's rounds of heartbeats, and its lanes, `ui::lanes`). A big group's
//! panel is a load chart and a list of members to scroll and search, each opened on demand
//! (`ui::members`).
//!
//! Stable hooks for tests and embedding pages: a classic panel has `data-strategy`, a server panel
//! `data-server-assignor` (`uniform`, `range`); each rendered member
//! row `data-member`, and the chips with `data-partition` under a member are exactly its current
//! assignment (revoked partitions carry `data-revoked` instead); an opened member's chips sit under
//! `data-opened-member`.
//!
//! At its first render a panel shows its head, figures and first member rows, then the others a
//! slice per frame (`ui::reveal`): at 1,000 partitions × 50 consumers a whole panel was one task of
//! 19–25 ms of the page thread's CPU, twice the opening's other frames (issue 9). Once its rows are
//! all in, an edit's answer paints it whole.
//!
//! What re-renders: the panel takes its digest behind an `Rc`, and each row its own
//! `Arc<MemberDigest>`, compared by value; an edit re-renders the rows whose figures or chips
//! changed, nothing else.

use std::rc::Rc;

use scenario::digest::{MemberDetail, MemberRequest, OutcomeDigest, PanelDigest};
use scenario::StrategyId;
use yew::prelude::*;

use crate::ui::ahead::{use_view_change, ViewChanges};
use crate::ui::explain::Explain;
use crate::ui::lanes::Lanes;
use crate::ui::members::{BigGroup, MemberRow, RowStyle, ROWS_IN_VIEW};
use crate::ui::reveal::{use_reveal, Growth};

/// Member rows a panel shows in its first frame, with its head and figures; then slices growing by
/// as many a frame up to [`ROW_SLICE`].
const FIRST_ROWS: usize = 4;
/// The most member rows a panel adds in one frame while it opens.
const ROW_SLICE: usize = 12;

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub digest: Rc<PanelDigest>,
    /// Whether the rebalance diff (added and revoked partitions, moves, rounds) is shown.
    pub show_diff: bool,
    /// Where an opened member's partitions come from.
    pub details: MemberSource,
    /// Whether the explain walkthrough may be opened (not in embeds).
    #[prop_or(true)]
    pub explain: bool,
    /// Whether the coordinator picks this strategy for the group as configured.
    #[prop_or_default]
    pub chosen: bool,
    /// Told once the member rows of the panel's first render are all in: the results region shows
    /// the next panel in the frame after.
    #[prop_or_default]
    pub on_rows_in: Option<Callback<()>>,
    /// The copy of the panels it is in (`ui::ahead`), if any.
    #[prop_or_default]
    pub changes: Option<ViewChanges>,
}

/// Where a big group's opened member gets its partitions: the page asks with a [`MemberRequest`]
/// and the answer comes through the callback, at once or later (from the compute worker, out of
/// the report it keeps of the version on screen). Compared by identity: a new source (a new result)
/// asks again.
#[derive(Clone)]
pub struct MemberSource(pub Rc<dyn Fn(MemberRequest, Answer)>);

/// Where the answer to a [`MemberRequest`] goes: the member's partitions, `Ok(None)` when it is not
/// in the panel, or why they could not come.
pub type Answer = Callback<Result<Option<Rc<MemberDetail>>, Unanswered>>;

/// Why an opened member's partitions did not come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The compute worker holds the report of the last version it computed only, and the result on
    /// screen is another (an undo brought back an earlier one, or a newer one is on its way).
    NotHeld,
    /// There is no compute worker (the browser refused to start it).
    NoWorker,
}

impl Unanswered {
    /// What the reader is told.
    pub fn message(self) -> &'static str {
        match self {
            Unanswered::NotHeld => {
                "The compute worker no longer keeps what this step started from (for a big group, undo keeps \
                 only the last few steps' assignments): edit the group to compute its partitions again."
            }
            Unanswered::NoWorker => "Its partitions cannot be computed: the compute worker did not start.",
        }
    }
}

impl PartialEq for MemberSource {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl MemberSource {
    /// Asks for `request`'s member; `answer` gets it.
    pub fn ask(&self, request: MemberRequest, answer: Answer) {
        (self.0)(request, answer)
    }
}

/// One panel, a classic strategy's or a server-side assignor's: the same figures, rows and opened
/// members for both; a server panel adds its subscription type and, with the diff, its lanes.
#[function_component]
pub fn StrategyPanel(props: &PanelProps) -> Html {
    crate::ui::rendered("StrategyPanel");
    let explaining = use_state(|| false);
    let toggle = {
        let explaining = explaining.clone();
        use_callback(explaining, |_: MouseEvent, explaining| explaining.set(!**explaining))
    };
    let digest = &props.digest;
    let row_count = match &digest.outcome {
        Ok(outcome) if outcome.chips => outcome.members.len(),
        Ok(outcome) => outcome.members.len().min(ROWS_IN_VIEW),
        Err(_) => 0,
    };
    let rows = use_reveal(row_count, FIRST_ROWS, ROW_SLICE, Growth::Whole);
    use_view_change(props.changes.as_ref(), *explaining || rows < row_count);
    use_effect_with((rows >= row_count, props.on_rows_in.clone()), |(all, on_rows_in)| {
        if let (true, Some(on_rows_in)) = (all, on_rows_in) {
            on_rows_in.emit(());
        }
    });
    let name = digest.panel.name();
    let (strategy, assignor) = match digest.panel {
        StrategyId::Classic(strategy) => (Some(strategy), None),
        StrategyId::Server(assignor) => (None, Some(assignor)),
    };
    // The walkthrough records every step: offered where chips are, not for a million partitions.
    let explain = (props.explain && digest.outcome.as_ref().is_ok_and(|o| o.chips)).then_some(digest.panel);
    let (badge, body) = match &digest.outcome {
        Err(message) => {
            let who = if assignor.is_some() { "Kafka's coordinator" } else { "Kafka's assignor" };
            (None, html! { <p class="error" role="alert">{ format!("{who} cannot assign this group: {message}") }</p> })
        }
        Ok(outcome) => (Some(badge(outcome)), outcome_view(outcome, props, rows)),
    };
    // A big group's panel with the diff keeps its figures' lines from answer to answer (style.css,
    // "An answer's frame, still"): a figure that comes, goes or wraps moves nothing below it.
    let steady = digest.outcome.as_ref().is_ok_and(|o| !o.chips && props.show_diff && o.moves.had_owners);
    let chosen_title = if assignor.is_some() {
        "the group's group.remote.assignor"
    } else {
        "the coordinator picks this strategy for the consumers as configured"
    };
    html! {
        <section class={classes!("panel", assignor.is_some().then_some("server-panel"), props.chosen.then_some("chosen-panel"), steady.then_some("steady"))}
            data-strategy={strategy.map(|s| s.name())} data-server-assignor={assignor.map(|a| a.name())} aria-labelledby={format!("panel-{name}")}>
            <header>
                <h3 id={format!("panel-{name}")}>{ digest.panel.title() }</h3>
                { badge.unwrap_or_default() }
                if props.chosen {
                    <span class="chosen" title={chosen_title}>{ "the group's choice" }</span>
                }
                if explain.is_some() {
                    <button type="button" class="explain-toggle" aria-expanded={explaining.to_string()} onclick={toggle}>
                        { if *explaining { "Close walkthrough" } else { "Explain" } }
                    </button>
                }
            </header>
            if let Some(strategy) = explain.filter(|_| *explaining) {
                <Explain {strategy} />
            } else {
                { body }
            }
        </section>
    }
}

/// The protocol beside a panel's name: the rebalance protocol of a classic strategy (and who still
/// rebalances eagerly), the coordinator's subscription type of a server-side assignor.
fn badge(outcome: &OutcomeDigest) -> Html {
    match &outcome.subscription_type {
        Some(subscription) => html! {
            <span class="protocol" title="the coordinator's subscription type: whether every member subscribes to the same topics">{ subscription.clone() }</span>
        },
        None if outcome.eager_members.is_empty() => {
            html! { <span class="protocol" title="rebalance protocol">{ outcome.protocol.clone() }</span> }
        }
        None => html! {
            <span class="protocol" title="rebalance protocol">{ format!("{} · eager: {}", outcome.protocol, outcome.eager_members) }</span>
        },
    }
}

/// The panel's body, its first `rows` member rows rendered.
fn outcome_view(outcome: &OutcomeDigest, props: &PanelProps, rows: usize) -> Html {
    let show_diff = props.show_diff && outcome.moves.had_owners;
    let server = matches!(props.digest.panel, StrategyId::Server(_));
    let style = RowStyle {
        topics: std::sync::Arc::clone(&outcome.topics),
        show_diff,
        unit: outcome.traffic.as_ref().map(|t| AttrValue::from(t.unit.clone())),
        racks: outcome.racks,
    };
    let members = if outcome.chips {
        html! {
            <ol class="members">
                { for outcome.members.iter().take(rows).map(|m| html! {
                    <MemberRow key={m.id.clone()} member={std::sync::Arc::clone(m)} style={style.clone()} />
                }) }
            </ol>
        }
    } else {
        html! { <BigGroup digest={Rc::clone(&props.digest)} {style} details={props.details.clone()} {rows} changes={props.changes.clone()} /> }
    };
    html! {
        <>
            { metrics(outcome, show_diff, server) }
            { members }
            if show_diff {
                { timeline(outcome, server) }
                if server {
                    <Lanes reconciliation={outcome.reconciliation.clone()} topics={std::sync::Arc::clone(&outcome.topics)} />
                }
            }
            if outcome.violation_count > 0 {
                <ul class="violations" aria-label="what Kafka does wrong here">
                    { for outcome.violations.iter().map(|v| html! { <li>{ v.clone() }</li> }) }
                    if outcome.violation_count > outcome.violations.len() {
                        <li>{ format!("and {} more", outcome.violation_count - outcome.violations.len()) }</li>
                    }
                </ul>
            }
        </>
    }
}

/// The balance figures (terms are read by tests and documentation pages: keep them). What stops
/// while a server-side assignor's target is reached is "stopped": partitions between two owners'
/// heartbeats, not a group-wide pause.
fn metrics(outcome: &OutcomeDigest, show_diff: bool, server: bool) -> Html {
    let m = &outcome.metrics;
    let moves = &outcome.moves;
    html! {
        <dl class="metrics">
            <div><dt>{ "spread" }</dt><dd class={classes!((m.spread > 1).then_some("warn"))}>{ format!("{} (max {}, min {})", m.spread, m.max, m.min) }</dd></div>
            if m.spread > 0 {
                <div><dt>{ "most loaded" }</dt><dd>{ m.most_loaded.to_string() }</dd></div>
            }
            if let Some(t) = &outcome.traffic {
                <div>
                    <dt title="Kafka's assignors never see weights: they change this figure, never the assignment">{ format!("spread ({})", t.unit) }</dt>
                    <dd data-weight-spread={t.spread.to_string()}>{ format!("{} ({}% of {} on the heaviest)", t.spread, t.heaviest_share, t.total) }</dd>
                </div>
                if t.spread > 0 {
                    <div><dt>{ format!("most loaded ({})", t.unit) }</dt><dd>{ t.most_loaded.to_string() }</dd></div>
                }
            }
            if m.unassigned > 0 {
                <div><dt>{ "unassigned" }</dt><dd class="warn">{ m.unassigned }</dd></div>
            }
            if !m.idle.is_empty() {
                <div><dt>{ "idle" }</dt><dd class="warn">{ m.idle.to_string() }</dd></div>
            }
            if outcome.racks {
                <div><dt title="partitions read by a consumer on a rack that holds none of their replicas">{ "cross-rack" }</dt><dd>{ m.cross_rack }</dd></div>
            }
            if show_diff {
                <div><dt>{ "moved" }</dt><dd data-moved={moves.moved.to_string()}>{ format!("{} ({}%)", moves.moved, super::fixed(moves.percent(m.assigned), 0)) }</dd></div>
                if server {
                    <div><dt title="partitions nobody consumed for a while, between two heartbeats">{ "stopped" }</dt><dd data-stopped={moves.paused.to_string()}>{ moves.paused }</dd></div>
                } else {
                    <div><dt>{ "paused" }</dt><dd>{ moves.paused }</dd></div>
                }
                <div><dt title="partitions taken from a member that still subscribes and keeps as many or more">{ "needless moves" }</dt><dd>{ moves.needless }</dd></div>
            }
        </dl>
    }
}

/// The rounds of the rebalance, and what stops meanwhile. The rounds are a plain list: each says
/// its own number ("round 1 · generation 5"; a server-side assignor's "heartbeats round 1 · epoch 6").
fn timeline(outcome: &OutcomeDigest, server: bool) -> Html {
    let timeline = &outcome.timeline;
    let (round, counter) = if server { ("heartbeats round", "epoch") } else { ("round", "generation") };
    html! {
        <div class="timeline">
            <ul class="rounds">
                { for timeline.rounds.iter().enumerate().map(|(i, r)| html! {
                    <li><span class="round">{ format!("{round} {} · {counter} {}", i + 1, r.generation) }</span>{ " " }{ r.text.clone() }</li>
                }) }
            </ul>
            <p>{ timeline.pauses.clone() }</p>
            if !timeline.settled {
                <p class="warn">{ format!("Kafka never settles here: after {} rounds it still moves partitions back and forth.", timeline.rounds.len()) }</p>
            }
        </div>
    }
}
