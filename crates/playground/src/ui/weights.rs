//! Traffic: each topic's weight per partition and its hot partitions, in a unit the user names.
//! Weights are not a rebalance: Kafka's assignors never see them, so an edit here changes every
//! member's load and never an assignment (the scenario is replaced as is, its previous assignment
//! kept, one undo step per committed value).

use std::collections::BTreeMap;

use scenario::Scenario;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::state::Action;
use crate::ui::Store;

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

#[function_component]
pub fn WeightsEditor() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let refused = use_state(|| None::<(usize, String)>);
    let scenario = &store.scenario;
    let replace = {
        let store = store.clone();
        move |next: Scenario| store.dispatch(Action::Load(next))
    };
    let on_unit = {
        let (scenario, replace) = (scenario.clone(), replace.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut next = (*scenario).clone();
            next.view.weight_unit = input.value().trim().to_string();
            replace(next);
        })
    };
    let rows = scenario.topics.iter().enumerate().map(|(i, topic)| {
        let on_weight = {
            let (scenario, replace, refused) = (scenario.clone(), replace.clone(), refused.clone());
            Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                let text = input.value();
                let weight = match text.trim() {
                    "" => None,
                    t => match t.parse::<u64>() {
                        Ok(w) => Some(w),
                        Err(_) => return refused.set(Some((i, format!("{t:?} is not a weight (a whole number)")))),
                    },
                };
                refused.set(None);
                let mut next = (*scenario).clone();
                if let Some(topic) = next.topics.get_mut(i) {
                    topic.weight = weight;
                }
                replace(next);
            })
        };
        // A long list is not shown: what is typed then changes those partitions and keeps the rest.
        let listed = topic.partition_weights.len() <= HOT_LIST;
        let on_hot = {
            let (scenario, replace, refused) = (scenario.clone(), replace.clone(), refused.clone());
            let partitions = topic.partitions;
            Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                match parse_overrides(&input.value(), partitions) {
                    Ok(map) => {
                        refused.set(None);
                        let mut next = (*scenario).clone();
                        if let Some(topic) = next.topics.get_mut(i) {
                            if listed {
                                topic.partition_weights = map;
                            } else {
                                topic.partition_weights.extend(map);
                            }
                        }
                        replace(next);
                    }
                    Err(message) => refused.set(Some((i, message))),
                }
            })
        };
        let message = refused.as_ref().filter(|(j, _)| *j == i).map(|(_, m)| m.clone());
        // Thousands of imported LAGs make a field no one reads: say how many instead, editable as text.
        let hot_placeholder = if topic.partition_weights.len() > HOT_LIST {
            format!("{} partitions weighed; type p=w to change some", topic.partition_weights.len())
        } else {
            "3=900, 7=1200".to_string()
        };
        let hot_value =
            if topic.partition_weights.len() > HOT_LIST { String::new() } else { overrides_text(&topic.partition_weights) };
        html! {
            <li key={topic.name.clone()} data-weight-topic={topic.name.clone()}>
                <span class="name">{ topic.name.clone() }</span>
                <label>{ "per partition " }
                    <input type="text" inputmode="numeric" size="8" placeholder="1" aria-label={format!("Weight of each partition of {}", topic.name)}
                        value={topic.weight.map(|w| w.to_string()).unwrap_or_default()} onchange={on_weight} />
                </label>
                <label>{ "hot partitions " }
                    <input type="text" size="14" placeholder={hot_placeholder} aria-label={format!("Hot partitions of {}", topic.name)}
                        value={hot_value} onchange={on_hot} />
                </label>
                if let Some(message) = message {
                    <span class="error" role="alert">{ message }</span>
                }
            </li>
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
