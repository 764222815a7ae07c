//! The only module that touches browser APIs: the URL, storage, the clipboard, downloads. Every
//! call tolerates their absence (a sandboxed iframe has no storage, an old browser no clipboard).

use wasm_bindgen::JsValue;

const STORAGE_KEY: &str = "kafka-assignor-playground/scenario";

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The page's address without query or fragment: the base of share links.
pub fn page_base() -> String {
    window()
        .and_then(|w| {
            let location = w.location();
            Some(format!("{}{}", location.origin().ok()?, location.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The URL fragment without `#`.
pub fn fragment() -> String {
    window().and_then(|w| w.location().hash().ok()).map(|h| h.trim_start_matches('#').to_string()).unwrap_or_default()
}

/// Whether the page was opened as an embed (`?embed`).
pub fn is_embed() -> bool {
    window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed=")))
}

/// Writes the fragment without adding a history entry.
pub fn replace_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let Ok(history) = w.history() else { return };
    let search = w.location().search().unwrap_or_default();
    let url = format!("{}{search}#{fragment}", page_base());
    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
}

/// Local storage, when the page may use it: a sandboxed iframe throws on the mere access.
fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The saved working scenario, if storage is available and holds one.
pub fn load_saved() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// Saves the working scenario; false when storage is unavailable or full.
pub fn save(json: &str) -> bool {
    storage().is_some_and(|s| s.set_item(STORAGE_KEY, json).is_ok())
}

/// Copies to the clipboard where the page may (a secure context); false where it may not.
pub fn copy_text(text: &str) -> bool {
    let Some(navigator) = window().map(|w| w.navigator()) else { return false };
    // `navigator.clipboard` is undefined outside secure contexts: calling it would throw.
    let has_clipboard = web_sys::js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if has_clipboard {
        let _ = navigator.clipboard().write_text(text);
    }
    has_clipboard
}

/// Offers `contents` as a file download.
pub fn download(name: &str, contents: &str) {
    let Some(document) = window().and_then(|w| w.document()) else { return };
    let parts = js_sys_array(contents);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(anchor) = document.create_element("a") {
        let _ = anchor.set_attribute("href", &url);
        let _ = anchor.set_attribute("download", name);
        if let Ok(anchor) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(anchor) {
            anchor.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn js_sys_array(text: &str) -> JsValue {
    let array = web_sys::js_sys::Array::new();
    array.push(&JsValue::from_str(text));
    array.into()
}
