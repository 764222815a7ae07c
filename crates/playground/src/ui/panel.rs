//! One strategy's panel: each member's partitions as chips coloured by topic, a load bar, the
//! balance figures, the rebalance diff and its rounds.
//!
//! Stable hooks for tests and embedding pages: the panel has `data-strategy`, each member row
//! `data-member`, and the chips with `data-partition` under a member are exactly its current
//! assignment (revoked partitions carry `data-revoked` instead).

use std::collections::{HashMap, HashSet};

use assignor::protocol::RebalanceProtocol;
use assignor::{Strategy, TopicPartition};
use yew::prelude::*;

use scenario::load::Load;

use crate::ui::explain::Explain;
use crate::ui::topic_class;
use scenario::report::{Outcome, StrategyReport};

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub strategy: Strategy,
    pub panel: PanelRef,
    /// Topic name to its position, for colours.
    pub topic_index: std::rc::Rc<HashMap<String, usize>>,
    pub show_diff: bool,
    pub summarised: bool,
    /// Whether the explain walkthrough may be opened (not in embeds).
    #[prop_or(true)]
    pub explain: bool,
    /// Whether the coordinator picks this strategy for the group as configured.
    #[prop_or_default]
    pub chosen: bool,
}

/// A panel in the shared computed results, compared by identity.
#[derive(Clone)]
pub struct PanelRef(pub std::rc::Rc<scenario::report::Report>, pub usize);

impl PartialEq for PanelRef {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0) && self.1 == other.1
    }
}

impl PanelRef {
    fn get(&self) -> Option<&StrategyReport> {
        self.0.strategies.get(self.1)
    }
}

#[function_component]
pub fn StrategyPanel(props: &PanelProps) -> Html {
    let explaining = use_state(|| false);
    let store = use_context::<crate::ui::Store>();
    let name = props.strategy.name();
    let Some(panel) = props.panel.get() else { return html! {} };
    // Load by traffic, when topics have weights (scenario::load; weights never change the assignment).
    let traffic = store.as_ref().filter(|s| s.scenario.topics.iter().any(|t| t.is_weighted())).and_then(|s| {
        let outcome = panel.outcome.as_ref().ok()?;
        let unit = if s.scenario.view.weight_unit.is_empty() {
            "weight".to_string()
        } else {
            s.scenario.view.weight_unit.clone()
        };
        Some(Traffic { load: outcome.load(&s.scenario.topics), unit })
    });
    let body = match &panel.outcome {
        Err(message) => {
            html! { <p class="error" role="alert">{ format!("Kafka's assignor cannot assign this group: {message}") }</p> }
        }
        Ok(outcome) => outcome_view(outcome, props, traffic.as_ref()),
    };
    let protocol = match &panel.outcome {
        Ok(o) if o.rebalance.eager_members.is_empty() => o.rebalance.protocol.name().to_string(),
        Ok(o) => format!("{} · eager: {}", o.rebalance.protocol.name(), o.rebalance.eager_members.join(", ")),
        Err(_) => String::new(),
    };
    let toggle = {
        let explaining = explaining.clone();
        Callback::from(move |_| explaining.set(!*explaining))
    };
    html! {
        <section class={classes!("panel", props.chosen.then_some("chosen-panel"))} data-strategy={name} aria-labelledby={format!("panel-{name}")}>
            <header>
                <h3 id={format!("panel-{name}")}>{ name }</h3>
                <span class="protocol" title="rebalance protocol">{ protocol }</span>
                if props.chosen {
                    <span class="chosen" title="the coordinator picks this strategy for the consumers as configured">{ "the group's choice" }</span>
                }
                if props.explain && panel.outcome.is_ok() {
                    <button type="button" class="explain-toggle" aria-expanded={explaining.to_string()} onclick={toggle}>
                        { if *explaining { "Close walkthrough" } else { "Explain" } }
                    </button>
                }
            </header>
            if *explaining {
                <Explain strategy={props.strategy} />
            } else {
                { body }
            }
        </section>
    }
}

/// Each member's load by partition weight, and what the weights measure.
struct Traffic {
    load: Load,
    unit: String,
}

fn outcome_view(outcome: &Outcome, props: &PanelProps, traffic: Option<&Traffic>) -> Html {
    let rebalance = &outcome.rebalance;
    let metrics = &outcome.metrics;
    let max = metrics.max.max(1);
    let heaviest = traffic.map_or(1, |t| t.load.members.values().map(|m| m.weight).max().unwrap_or(0).max(1));
    let show_diff = props.show_diff && !rebalance.before.values().all(Vec::is_empty);
    let rows = rebalance.result().iter().map(|(member, list)| {
        let change = rebalance.diff.members.get(member);
        let added: HashSet<&TopicPartition> = change.map(|c| c.added.iter().collect()).unwrap_or_default();
        let revoked: &[TopicPartition] = if show_diff { change.map(|c| c.revoked.as_slice()).unwrap_or_default() } else { &[] };
        let chip = |tp: &TopicPartition, kind: &'static str| {
            let class = classes!("chip", topic_class(props.topic_index.get(&*tp.topic).copied().unwrap_or(0)), kind);
            let text = tp.to_string();
            match kind {
                "revoked" => html! { <span {class} data-revoked={text.clone()} title={format!("{text}: revoked")}>{ text }</span> },
                _ => html! { <span {class} data-partition={text.clone()} title={format!("{text}: {kind}")}>{ text }</span> },
            }
        };
        let most = match traffic {
            Some(t) => t.load.most_loaded.contains(member) && t.load.spread > 0,
            None => metrics.most_loaded.contains(member) && metrics.spread() > 0,
        };
        let weight = traffic.and_then(|t| t.load.members.get(member)).map_or(0, |m| m.weight);
        // The bar shows the load: by weight when topics have weights, else by count.
        let width = match traffic {
            Some(_) => (u128::from(weight) * 100 / u128::from(heaviest)) as u64,
            None => (100 * list.len() / max) as u64,
        };
        html! {
            <li class={classes!("member", most.then_some("most-loaded"), list.is_empty().then_some("idle"), traffic.is_some().then_some("weighted"))} data-member={member.clone()} key={member.clone()}>
                <span class="name">{ member.clone() }</span>
                <span class="count" aria-label={format!("{} partitions", list.len())}>{ list.len() }</span>
                if let Some(t) = traffic {
                    <span class="weight" data-weight={weight.to_string()} aria-label={format!("{weight} {}", t.unit)}>{ weight }</span>
                }
                <span class="bar" aria-hidden="true"><span style={format!("width:{width}%")}></span></span>
                if props.summarised {
                    <span class="summary">{ scenario::compact(list) }</span>
                } else {
                    <span class="chips">
                        { for list.iter().map(|tp| chip(tp, if show_diff && added.contains(tp) { "added" } else { "kept" })) }
                        { for revoked.iter().map(|tp| chip(tp, "revoked")) }
                    </span>
                }
            </li>
        }
    });
    let moved = rebalance.diff.moved.len();
    html! {
        <>
            <dl class="metrics">
                <div><dt>{ "spread" }</dt><dd class={classes!((metrics.spread() > 1).then_some("warn"))}>{ format!("{} (max {}, min {})", metrics.spread(), metrics.max, metrics.min) }</dd></div>
                if metrics.spread() > 0 {
                    <div><dt>{ "most loaded" }</dt><dd>{ metrics.most_loaded.join(", ") }</dd></div>
                }
                if let Some(t) = traffic {
                    <div>
                        <dt title="Kafka's assignors never see weights: they change this figure, never the assignment">{ format!("spread ({})", t.unit) }</dt>
                        <dd data-weight-spread={t.load.spread.to_string()}>{ format!("{} ({}% of {} on the heaviest)", t.load.spread, t.load.heaviest_share(), t.load.total) }</dd>
                    </div>
                    if t.load.spread > 0 {
                        <div><dt>{ format!("most loaded ({})", t.unit) }</dt><dd>{ t.load.most_loaded.join(", ") }</dd></div>
                    }
                }
                if metrics.unassigned > 0 {
                    <div><dt>{ "unassigned" }</dt><dd class="warn">{ metrics.unassigned }</dd></div>
                }
                if !metrics.idle.is_empty() {
                    <div><dt>{ "idle" }</dt><dd class="warn">{ metrics.idle.join(", ") }</dd></div>
                }
                if props.panel.0.racks {
                    <div><dt>{ "cross-rack" }</dt><dd>{ metrics.cross_rack }</dd></div>
                }
                if show_diff {
                    <div><dt>{ "moved" }</dt><dd>{ format!("{moved} ({:.0}%)", outcome.moved_percent()) }</dd></div>
                    <div><dt>{ "paused" }</dt><dd>{ rebalance.paused_count() }</dd></div>
                    <div><dt title="partitions taken from a member that still subscribes and keeps as many or more">{ "needless moves" }</dt><dd>{ outcome.needless_moves }</dd></div>
                }
            </dl>
            <ol class="members">{ for rows }</ol>
            if show_diff {
                { timeline(outcome) }
            }
            if !outcome.violations.is_empty() {
                <ul class="violations" aria-label="what Kafka does wrong here">
                    { for outcome.violations.iter().map(|v| html! { <li>{ v.to_string() }</li> }) }
                </ul>
            }
        </>
    }
}

/// The rounds of the rebalance, and what stops meanwhile.
fn timeline(outcome: &Outcome) -> Html {
    let rebalance = &outcome.rebalance;
    let eager = rebalance.protocol == RebalanceProtocol::Eager;
    let some_eager = !rebalance.eager_members.is_empty();
    let rounds = rebalance.rounds.iter().enumerate().map(|(i, round)| {
        let revoked = round.diff.revoked_count();
        let withheld = round.assignment.withheld.len();
        let added: usize = round.diff.members.values().map(|c| c.added.len()).sum();
        let text = if eager {
            format!("every member revokes all it owns, then gets {} partitions", round.assignment.assigned_count())
        } else if i == 0 {
            format!("{revoked} revoked, {withheld} held back until their owner lets go, {added} handed out")
        } else {
            format!("follow-up: {added} handed to their new owner, {revoked} revoked")
        };
        html! { <li><span class="round">{ format!("round {} · generation {}", i + 1, round.generation) }</span>{ " " }{ text }</li> }
    });
    let paused = rebalance.paused_count();
    let summary = if eager {
        format!("stop-the-world: {paused} partitions stop while the group rebalances")
    } else if some_eager {
        format!(
            "{paused} partitions stop: {} still rebalance eagerly (they list an eager-only strategy) and revoke everything",
            rebalance.eager_members.join(", ")
        )
    } else if paused == 0 {
        "nothing stops: no member gives up a partition it is consuming".to_string()
    } else if paused == 1 {
        "only the 1 partition that moves stops; the rest keep flowing".to_string()
    } else {
        format!("only the {paused} partitions that move stop; the rest keep flowing")
    };
    html! {
        <div class="timeline">
            <ol>{ for rounds }</ol>
            <p>{ summary }</p>
            if !rebalance.settled {
                <p class="warn">{ format!("Kafka never settles here: after {} rounds it still moves partitions back and forth.", rebalance.rounds.len()) }</p>
            }
        </div>
    }
}
