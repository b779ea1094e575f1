//! The page's stylesheet: the files under `assets/css/`, one area each, bundled in the order
//! `assets/css/bundle.txt` lists them into the one `assets/style.css` that `index.html` links
//! (in `dist/`, and inlined from there into the single file).
//!
//! The order is the cascade's: of two rules of equal specificity that set the same property on
//! the same element, the one in the later file wins.

use std::path::{Path, PathBuf};

use crate::Result;

/// The folder of the stylesheet's files, under the repository root.
pub const SOURCE_DIR: &str = "assets/css";
/// The list of those files in bundle order, under [`SOURCE_DIR`].
pub const MANIFEST: &str = "bundle.txt";
/// The bundle, under `dist/`: what `index.html` links.
pub const BUNDLE: &str = "assets/style.css";

/// The files of the stylesheet in bundle order, as `bundle.txt` under `dir` lists them: one
/// name a line; blank lines and `#` comments skipped. A name that is not a plain `.css` file
/// name, or that is listed twice, is an error.
pub fn listed(dir: &Path) -> Result<Vec<PathBuf>> {
    let manifest = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let mut names: Vec<&str> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let name = line.trim();
        if name.is_empty() || name.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", manifest.display(), i + 1);
        if !name.ends_with(".css") || name.contains(['/', '\\']) {
            return Err(
                format!("{at}: `{name}` is not the name of a .css file in {SOURCE_DIR}").into(),
            );
        }
        if names.contains(&name) {
            return Err(format!("{at}: `{name}` is listed twice").into());
        }
        names.push(name);
    }
    Ok(names.iter().map(|n| dir.join(n)).collect())
}

/// The `.css` files under `dir` (not recursive), in name order.
pub fn present(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "css") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// The listed files of `dir` joined in order into one stylesheet. Every `.css` file of `dir`
/// must be listed and every listed file must exist, so that none is left out unnoticed.
pub fn bundle(dir: &Path) -> Result<String> {
    let listed = listed(dir)?;
    let unlisted: Vec<String> = present(dir)?
        .into_iter()
        .filter(|p| !listed.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    if !unlisted.is_empty() {
        return Err(format!(
            "not in {SOURCE_DIR}/{MANIFEST}: {} (add each where the cascade wants it)",
            unlisted.join(", ")
        )
        .into());
    }
    let mut css = String::new();
    for path in &listed {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {} (listed in {MANIFEST}): {e}", path.display()))?;
        css.push_str(&text);
        if !css.ends_with('\n') {
            css.push('\n');
        }
    }
    Ok(css)
}

/// Writes the bundle of `root`'s [`SOURCE_DIR`] to `dist`'s [`BUNDLE`]; returns the number of
/// files and the bundle's size in bytes.
pub fn write(root: &Path, dist: &Path) -> Result<(usize, usize)> {
    let dir = root.join(SOURCE_DIR);
    let css = bundle(&dir)?;
    let path = dist.join(BUNDLE);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&path, &css).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok((listed(&dir)?.len(), css.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kraft-css-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        dir
    }

    /// The repository's own stylesheet: every file under assets/css is listed, every listed
    /// file exists, and the bundle is their texts in the listed order.
    #[test]
    fn every_stylesheet_file_is_listed_and_exists() {
        let dir = crate::root_dir().join(SOURCE_DIR);
        let listed = listed(&dir).unwrap();
        let present = present(&dir).unwrap();
        for path in &listed {
            assert!(
                path.is_file(),
                "{} is listed in {MANIFEST} but missing",
                path.display()
            );
        }
        for path in &present {
            assert!(
                listed.contains(path),
                "{} is not listed in {MANIFEST}",
                path.display()
            );
        }
        let css = bundle(&dir).unwrap();
        let mut at = 0;
        for path in &listed {
            let text = std::fs::read_to_string(path).unwrap();
            let found = css[at..]
                .find(&text)
                .expect("each file in the bundle, in order");
            at += found + text.len();
        }
        assert!(
            !css.contains("</style"),
            "the bundle is inlined into the single file"
        );
    }

    #[test]
    fn bundles_in_the_listed_order() {
        let dir = scratch(
            "order",
            &[
                (MANIFEST, "# the cascade's order\nb.css\n\na.css\n"),
                ("a.css", "a { x: 1; }"),
                ("b.css", "b { x: 2; }\n"),
            ],
        );
        assert_eq!(bundle(&dir).unwrap(), "b { x: 2; }\na { x: 1; }\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn refuses_an_unlisted_a_missing_or_a_twice_listed_file() {
        let unlisted = scratch(
            "unlisted",
            &[(MANIFEST, "a.css\n"), ("a.css", ""), ("b.css", "")],
        );
        let e = bundle(&unlisted).unwrap_err().to_string();
        assert!(e.contains("b.css"), "{e}");
        let missing = scratch("missing", &[(MANIFEST, "a.css\nb.css\n"), ("a.css", "")]);
        let e = bundle(&missing).unwrap_err().to_string();
        assert!(e.contains("b.css"), "{e}");
        let twice = scratch("twice", &[(MANIFEST, "a.css\na.css\n"), ("a.css", "")]);
        let e = bundle(&twice).unwrap_err().to_string();
        assert!(e.contains(":2:") && e.contains("twice"), "{e}");
        let path = scratch("path", &[(MANIFEST, "../a.css\n")]);
        assert!(bundle(&path).is_err());
        for dir in [unlisted, missing, twice, path] {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
