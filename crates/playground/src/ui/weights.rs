//! Traffic: each topic's weight per partition and its hot partitions, in a unit the user names.
//! Weights are not a rebalance: Kafka's assignors never see them, so an edit here changes every
//! member's load and never an assignment (the scenario is replaced as is, its previous assignment
//! kept, one undo step per committed value).

use std::collections::BTreeMap;
use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::Action;
use crate::ui::editors::TopicOf;
use crate::ui::keys::RowKeys;
use crate::ui::{rendered, Store};

/// Beyond this many partition weights, the field says how many instead of listing them.
const HOT_LIST: usize = 64;

/// `3=900, 7=1200` (partition = weight), or why not.
fn parse_overrides(text: &str, partitions: u32) -> Result<BTreeMap<u32, u64>, String> {
    let mut out = BTreeMap::new();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (p, w) = item.split_once('=').ok_or_else(|| format!("{item:?}: write partition=weight"))?;
        let p: u32 = p.trim().parse().map_err(|_| format!("{p:?} is not a partition number"))?;
        let w: u64 = w.trim().parse().map_err(|_| format!("{w:?} is not a weight (a whole number)"))?;
        if p >= partitions {
            return Err(format!("partition {p}: the topic has {partitions}"));
        }
        out.insert(p, w);
    }
    Ok(out)
}

fn overrides_text(map: &BTreeMap<u32, u64>) -> String {
    map.iter().map(|(p, w)| format!("{p}={w}")).collect::<Vec<_>>().join(", ")
}

/// A change to one topic's weights.
enum WeightChange {
    /// Every partition's weight (`None`: the default, 1).
    Each(Option<u64>),
    /// Hot partitions: the whole list when it was shown, or else changes to some of them.
    Hot { weights: BTreeMap<u32, u64>, listed: bool },
}

#[function_component]
pub fn WeightsEditor() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    rendered("WeightsEditor");
    let refused = use_state(|| None::<(usize, String)>);
    let keys = use_mut_ref(RowKeys::default);
    // The scenario on screen, for the rows' callbacks, which stay the same from render to render.
    let latest = use_mut_ref(|| Rc::clone(&store.scenario));
    *latest.borrow_mut() = Rc::clone(&store.scenario);
    let scenario = &store.scenario;
    let change = {
        let (latest, refused) = (Rc::clone(&latest), refused.setter());
        use_callback(store.dispatcher(), move |(i, change): (usize, WeightChange), dispatcher| {
            refused.set(None);
            let mut next = (**latest.borrow()).clone();
            if let Some(topic) = next.topics.get_mut(i) {
                match change {
                    WeightChange::Each(weight) => topic.weight = weight,
                    WeightChange::Hot { weights, listed: true } => topic.partition_weights = weights,
                    WeightChange::Hot { weights, listed: false } => topic.partition_weights.extend(weights),
                }
            }
            dispatcher.dispatch(Action::Reweigh(next));
        })
    };
    let refuse = use_callback(refused.setter(), |refusal: (usize, String), refused| refused.set(Some(refusal)));
    let on_unit = {
        let (latest, dispatcher) = (Rc::clone(&latest), store.dispatcher());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut next = (**latest.borrow()).clone();
            next.view.weight_unit = input.value().trim().to_string();
            dispatcher.dispatch(Action::Reweigh(next));
        })
    };
    let row_keys = keys.borrow_mut().follow(scenario.topics.iter().map(|t| t.name.as_str()));
    let rows = row_keys.iter().enumerate().map(|(index, &row)| {
        let error = refused.as_ref().filter(|(j, _)| *j == index).map(|(_, m)| AttrValue::from(m.clone()));
        html! {
            <WeightRow key={row} {index} topic={TopicOf::new(Rc::clone(scenario), index)} {error}
                change={change.clone()} refuse={refuse.clone()} />
        }
    });
    html! {
        <section class="editor weights" aria-label="Traffic">
            <h2>{ "Traffic" }</h2>
            <p class="note">
                { "Weigh partitions by their traffic to see load as well as counts. Kafka's assignors never see \
                   weights: they change every member's load, never an assignment." }
            </p>
            <label class="inline">{ "Unit " }
                <input type="text" size="12" placeholder="messages/s" aria-label="Weight unit"
                    value={scenario.view.weight_unit.clone()} onchange={on_unit} />
            </label>
            <ul class="weight-rows">{ for rows }</ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct WeightRowProps {
    index: usize,
    topic: TopicOf,
    error: Option<AttrValue>,
    change: Callback<(usize, WeightChange)>,
    refuse: Callback<(usize, String)>,
}

#[function_component]
fn WeightRow(props: &WeightRowProps) -> Html {
    rendered("WeightRow");
    let Some(topic) = props.topic.get() else { return html! {} };
    let (i, partitions) = (props.index, topic.partitions);
    // A long list is not shown: what is typed then changes those partitions and keeps the rest.
    let listed = topic.partition_weights.len() <= HOT_LIST;
    let on_weight = use_callback((i, props.change.clone(), props.refuse.clone()), |e: Event, (i, change, refuse)| {
        let input: HtmlInputElement = e.target_unchecked_into();
        match input.value().trim() {
            "" => change.emit((*i, WeightChange::Each(None))),
            t => match t.parse::<u64>() {
                Ok(w) => change.emit((*i, WeightChange::Each(Some(w)))),
                Err(_) => refuse.emit((*i, format!("{t:?} is not a weight (a whole number)"))),
            },
        }
    });
    let on_hot = use_callback(
        (i, partitions, listed, props.change.clone(), props.refuse.clone()),
        |e: Event, (i, partitions, listed, change, refuse)| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match parse_overrides(&input.value(), *partitions) {
                Ok(weights) => change.emit((*i, WeightChange::Hot { weights, listed: *listed })),
                Err(message) => refuse.emit((*i, message)),
            }
        },
    );
    // Thousands of imported LAGs make a field no one reads: say how many instead, editable as text.
    let (hot_placeholder, hot_value) = if listed {
        ("3=900, 7=1200".to_string(), overrides_text(&topic.partition_weights))
    } else {
        (format!("{} partitions weighed; type p=w to change some", topic.partition_weights.len()), String::new())
    };
    html! {
        <li data-weight-topic={topic.name.clone()}>
            <span class="name">{ topic.name.clone() }</span>
            <label>{ "per partition " }
                <input type="text" inputmode="numeric" size="8" placeholder="1" aria-label={format!("Weight of each partition of {}", topic.name)}
                    value={topic.weight.map(|w| w.to_string()).unwrap_or_default()} onchange={on_weight} />
            </label>
            <label>{ "hot partitions " }
                <input type="text" size="14" placeholder={hot_placeholder} aria-label={format!("Hot partitions of {}", topic.name)}
                    value={hot_value} onchange={on_hot} />
            </label>
            if let Some(message) = props.error.clone() {
                <span class="error" role="alert">{ message }</span>
            }
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_partitions_are_read_and_refused_with_reasons() {
        assert_eq!(parse_overrides("3=900, 1=5", 4), Ok([(1, 5), (3, 900)].into_iter().collect()));
        assert_eq!(parse_overrides(" ", 4), Ok(BTreeMap::new()));
        assert_eq!(parse_overrides("4=1", 4), Err("partition 4: the topic has 4".into()));
        assert_eq!(parse_overrides("x=1", 4), Err("\"x\" is not a partition number".into()));
        assert_eq!(parse_overrides("1", 4), Err("\"1\": write partition=weight".into()));
        assert_eq!(overrides_text(&[(1, 5), (3, 900)].into_iter().collect()), "1=5, 3=900");
    }
}
