//! The file reader (a Web Worker built by Trunk from this binary, at the page's size-optimised
//! `web` profile): opens a file handed to Import JSON (`playground::work::open_file`). Started for
//! each file and stopped once it answers (`browser::open_file`), so the rulebook for `kap batch`
//! lines (the snapshot readers, the coordinator's assignors) is downloaded only by those who
//! import a file: neither the page nor the compute worker carries it.

use playground::work::{open_file, Message};
use wasm_bindgen::prelude::{Closure, JsValue};
use wasm_bindgen::JsCast;
use web_sys::js_sys::Uint8Array;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    let Ok(scope) = web_sys::js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else { return };
    let replies = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        // The scenario in the binary form (`work::Message`): the page reads no scenario file.
        let value = open_file(&text).encode().map_or(JsValue::NULL, |bytes| Uint8Array::from(bytes.as_slice()).into());
        let _ = replies.post_message(&value);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // Listening: the page sends the file only now.
    let _ = scope.post_message(&JsValue::NULL);
}
