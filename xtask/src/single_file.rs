//! `cargo xtask dist --single-file`: the whole page in one HTML file that works opened from
//! file:// on a machine with no server and no network (a USB stick in a lecture hall). The
//! stylesheet and wasm-bindgen's glue are inlined; the wasm goes in gzip-compressed and base64
//! encoded in a non-executed `<script type="application/octet-stream">`, unpacked at start with
//! the browser's own `DecompressionStream` and handed to the glue's init. Every lesson is
//! compiled into the wasm already, so nothing else is fetched.

use std::path::{Path, PathBuf};

use base64::Engine;

use crate::compress::gzip;
use crate::Result;

/// The single file's name under `dist/`.
pub const FILE_NAME: &str = "kraft-playground.html";

/// What index.html links and imports, replaced by the inlined copies.
const STYLESHEET_LINK: &str = r#"<link rel="stylesheet" href="./assets/style.css">"#;
const MODULE_IMPORT: &str = "import init from './kraft_web.js';";
/// wasm-bindgen's last line, exporting its init as the module's default.
const GLUE_EXPORT: &str = "export { initSync, __wbg_init as default };";

/// The loader that replaces `import init from './kraft_web.js'`: `init` unpacks the inlined
/// wasm and starts it.
const LOADER: &str = "
const init = async () => {
    const text = document.getElementById('kraft-wasm').textContent;
    const packed = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
    const bytes = await new Response(stream).arrayBuffer();
    return __wbg_init({ module_or_path: bytes });
};
";

/// Writes `dist/kraft-playground.html` from the built `dist/` and returns its path.
pub fn write(dist: &Path) -> Result<PathBuf> {
    let read = |name: &str| {
        std::fs::read_to_string(dist.join(name))
            .map_err(|e| format!("cannot read {}: {e} (run `cargo xtask dist` first)", name))
    };
    let index = read("index.html")?;
    let css = read(crate::css::BUNDLE)?;
    let glue = read("kraft_web.js")?;
    let wasm = std::fs::read(dist.join("kraft_web_bg.wasm"))?;
    let packed = base64::engine::general_purpose::STANDARD.encode(gzip(&wasm)?);
    let html = assemble(&index, &css, &glue, &packed)?;
    let path = dist.join(FILE_NAME);
    std::fs::write(&path, &html)?;
    println!(
        "single file: {} ({} KB, wasm {} KB inside)",
        path.display(),
        html.len() / 1024,
        wasm.len() / 1024
    );
    Ok(path)
}

/// index.html with the stylesheet, the glue, the loader and the packed wasm inlined.
fn assemble(index: &str, css: &str, glue: &str, packed: &str) -> Result<String> {
    for (what, text) in [("the stylesheet", css), ("wasm-bindgen's glue", glue)] {
        if text.contains("</script") || text.contains("</style") {
            return Err(format!("{what} holds a closing tag and cannot be inlined").into());
        }
    }
    if !glue.contains(GLUE_EXPORT) {
        return Err(format!("wasm-bindgen's glue no longer ends with `{GLUE_EXPORT}`").into());
    }
    let glue = glue.replace(GLUE_EXPORT, "");
    let module = format!("{glue}\n{LOADER}");
    let mut html = replace_once(index, STYLESHEET_LINK, &format!("<style>\n{css}\n</style>"))?;
    html = replace_once(&html, MODULE_IMPORT, &module)?;
    let data = format!(
        "<script type=\"application/octet-stream\" id=\"kraft-wasm\">{packed}</script>\n</body>"
    );
    replace_once(&html, "</body>", &data)
}

/// `text` with its one `from` replaced, or an error naming what index.html lacks.
fn replace_once(text: &str, from: &str, to: &str) -> Result<String> {
    match text.matches(from).count() {
        1 => Ok(text.replacen(from, to, 1)),
        n => Err(format!("index.html holds `{from}` {n} times, not once").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<head>\n<link rel=\"stylesheet\" href=\"./assets/style.css\">\n</head>\n<body>\n<script type=\"module\">\nimport init from './kraft_web.js';\ninit();\n</script>\n</body>";

    #[test]
    fn inlines_everything() {
        let glue = "async function __wbg_init(m) {}\nexport { initSync, __wbg_init as default };";
        let html = assemble(INDEX, "body{}", glue, "QUJD").unwrap();
        assert!(html.contains("<style>\nbody{}\n</style>"));
        assert!(!html.contains("./assets/style.css") && !html.contains("./kraft_web.js"));
        assert!(!html.contains("export {"));
        assert!(html.contains("id=\"kraft-wasm\">QUJD</script>\n</body>"));
        assert!(html.find("const init").unwrap() < html.find("init();").unwrap());
    }

    #[test]
    fn refuses_what_cannot_be_inlined() {
        let glue = "export { initSync, __wbg_init as default };";
        assert!(assemble(INDEX, "a</style>", glue, "").is_err());
        assert!(assemble(INDEX, "", "no export", "").is_err());
        assert!(assemble("<body></body>", "", glue, "").is_err());
    }
}
