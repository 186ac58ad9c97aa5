//! The documentation's links: every relative link of `README.md`, `BENCHMARKS.md` and
//! `docs/**/*.md` leads to a file or folder of the repository and, with a `#anchor` into a
//! Markdown file, to one of its headings as GitHub names them. Links to other sites are not
//! followed (no network in tests).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// The repository's root, from this crate's manifest.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The Markdown files whose links are checked: the README, the benchmarks and all of `docs/`.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
    let mut folders = vec![root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<(char, usize)> = None;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| trimmed.chars().take_while(|c| *c == m).count());
        match (fence, marker) {
            (None, Some(m)) if indent < 4 && run >= 3 => fence = Some((m, run)),
            (Some((m, n)), Some(c)) if c == m && run >= n && trimmed[run..].trim().is_empty() => {
                fence = None;
            }
            (None, _) => lines.push((i + 1, line)),
            (Some(_), _) => {}
        }
    }
    lines
}

/// A line with its inline code spans (`` `...` ``, ``` `` ... `` ```) left out.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].chars().take_while(|c| *c == '`').count();
        let after = &rest[start + run..];
        let closing = "`".repeat(run);
        // A span closes at the next run of exactly as many backticks; without one the
        // backticks are literal.
        let mut search = 0;
        let mut end = None;
        while let Some(found) = after[search..].find(&closing) {
            let at = search + found;
            let longer = after[at + run..].starts_with('`');
            if !longer && (at == 0 || !after[..at].ends_with('`')) {
                end = Some(at);
                break;
            }
            search = at + after[at..].chars().take_while(|c| *c == '`').count();
        }
        match end {
            Some(at) => rest = &after[at + run..],
            None => {
                out.push_str(&rest[start..start + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The link targets of one line of prose: inline links and images `[text](target "title")`,
/// and reference definitions `[name]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find(']')
        && trimmed[close + 1..].starts_with(':')
    {
        if let Some(target) = trimmed[close + 2..].split_whitespace().next() {
            targets.push(target.trim_start_matches('<').trim_end_matches('>').to_string());
        }
        return targets;
    }
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let inside = after[..end].trim();
        let target = if let Some(bracketed) = inside.strip_prefix('<') {
            bracketed.split('>').next().unwrap_or("")
        } else {
            inside.split_whitespace().next().unwrap_or("")
        };
        targets.push(target.to_string());
        rest = &after[end.min(after.len())..];
    }
    targets
}

/// The anchor GitHub gives a heading's text: lower case, every character that is not a letter,
/// a digit, `-` or `_` dropped, each space a hyphen (inline code and links count by their text).
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // A link's text stands for the link.
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").map(|m| open + m) {
            Some(mid) => {
                let close = rest[mid..].find(')').map_or(rest.len(), |c| mid + c + 1);
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..mid]);
                rest = &rest[close..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text: its headings' slugs (ATX `#` headings and setext headings,
/// repeats numbered `-1`, `-2`, ... as GitHub does) and the `id`/`name` of HTML anchors.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut anchors = HashSet::new();
    let mut add = |heading: &str, anchors: &mut HashSet<String>| {
        let base = slug(heading.trim());
        let mut candidate = base.clone();
        let mut n = 0;
        while !seen.insert(candidate.clone()) {
            n += 1;
            candidate = format!("{base}-{n}");
        }
        anchors.insert(candidate);
    };
    let lines = prose_lines(text);
    for (k, (_, line)) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes)
            && line.len() - trimmed.len() < 4
            && (trimmed.len() == hashes || trimmed[hashes..].starts_with(' '))
        {
            let heading = trimmed[hashes..].trim().trim_end_matches('#').trim_end();
            add(heading, &mut anchors);
        } else if k > 0
            && !trimmed.is_empty()
            && (trimmed.trim_end().chars().all(|c| c == '=') || trimmed.trim_end().chars().all(|c| c == '-'))
        {
            let (number, previous) = lines[k - 1];
            let (this, _) = lines[k];
            let previous = previous.trim();
            let is_text = !previous.is_empty()
                && !previous.starts_with(['#', '|', '-', '*', '>', '<'])
                && !previous.chars().next().is_some_and(|c| c.is_ascii_digit());
            if number + 1 == this && is_text {
                add(previous, &mut anchors);
            }
        }
        for attribute in ["id=\"", "name=\""] {
            let mut rest = *line;
            while let Some(at) = rest.find(attribute) {
                let value = &rest[at + attribute.len()..];
                let end = value.find('"').unwrap_or(value.len());
                anchors.insert(value[..end].to_string());
                rest = &value[end..];
            }
        }
    }
    anchors
}

/// `%20` and the like in a link's path, decoded.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a link target names another site or a scheme (`https:`, `mailto:`), not a file.
fn is_external(target: &str) -> bool {
    let scheme: String = target.chars().take_while(|c| *c != ':' && *c != '/' && *c != '#').collect();
    target[scheme.len()..].starts_with(':')
        && scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
}

/// `path` with its `.` and `..` resolved, or `None` when it climbs out of `root`.
fn normalised(root: &Path, path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.starts_with(root).then_some(out)
}

/// Every broken relative link of the Markdown text `text`, found in the file `file` of the
/// repository at `root`: `file:line: target: why`.
fn broken_links(root: &Path, file: &Path, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    let name = file.strip_prefix(root).unwrap_or(file).display().to_string();
    for (number, line) in prose_lines(text) {
        for target in link_targets(line) {
            if target.is_empty() || is_external(&target) {
                if target.is_empty() {
                    broken.push(format!("{name}:{number}: an empty link"));
                }
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = percent_decoded(path);
            let resolved = if path.is_empty() {
                Some(file.to_path_buf())
            } else if let Some(from_root) = path.strip_prefix('/') {
                normalised(root, &root.join(from_root))
            } else {
                normalised(root, &file.parent().unwrap().join(&path))
            };
            let Some(resolved) = resolved else {
                broken.push(format!("{name}:{number}: {target}: leads out of the repository"));
                continue;
            };
            if !path.is_empty() && !resolved.exists() {
                broken.push(format!("{name}:{number}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if resolved.extension().is_none_or(|e| e != "md") {
                continue; // anchors into source files (`#L10`) are GitHub's, not headings
            }
            let target_text =
                if resolved == file { text.to_string() } else { std::fs::read_to_string(&resolved).unwrap() };
            if !anchors(&target_text).contains(&percent_decoded(anchor)) {
                broken.push(format!("{name}:{number}: {target}: no heading with the anchor #{anchor}"));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let root = root();
    let files = documents(&root);
    assert!(files.len() > 3, "the documentation: {files:?}");
    let mut broken = Vec::new();
    let mut links = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        links += prose_lines(&text).iter().map(|(_, l)| link_targets(l).len()).sum::<usize>();
        broken.extend(broken_links(&root, file, &text));
    }
    assert!(links > 50, "only {links} links found: is the link reader broken?");
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Quick start"), "quick-start");
    assert_eq!(
        slug("Under the ban on perpetual check (`perpetual-check`)"),
        "under-the-ban-on-perpetual-check-perpetual-check"
    );
    assert_eq!(slug("C and C++ (engines)"), "c-and-c-engines");
    assert_eq!(
        slug("Xiangqi (HDU 5897: General vs General + Horse)"),
        "xiangqi-hdu-5897-general-vs-general--horse"
    );
    assert_eq!(
        slug("Materials as players count them: `generate --attackers 1` (issue 21)"),
        "materials-as-players-count-them-generate---attackers-1-issue-21"
    );
    assert_eq!(
        slug("Version 3 on a quiet machine (2026-12-02, the lead)"),
        "version-3-on-a-quiet-machine-2026-12-02-the-lead"
    );
    assert_eq!(slug("The [server](x.md) and 单车"), "the-server-and-单车");
    assert_eq!(slug("snake_case and ≤5-man"), "snake_case-and-5-man");
}

#[test]
fn the_checker_finds_broken_links_and_anchors() {
    let root = root();
    let file = root.join("docs/example.md");
    let text = "# A page\n\n## Same\n\n## Same\n\n\
        [ok](../README.md) [ok](#a-page) [ok](#same-1) [ok](https://example.org/x) \
        ![ok](explorer-xiangqi.png) [ok](/docs/cli.md#the-command-line) `[not a link](nowhere.md)`\n\
        [gone](nowhere.md)\n[bad anchor](#same-2)\n\n```sh\n[in code](nowhere.md)\n```\n\
        [far](../../outside.md) [anchor](cli.md#no-such-heading)\n[ref]: missing.md\n";
    let broken = broken_links(&root, &file, text);
    let expected = [
        "docs/example.md:8: nowhere.md: no such file",
        "docs/example.md:9: #same-2: no heading with the anchor #same-2",
        "docs/example.md:14: ../../outside.md: leads out of the repository",
        "docs/example.md:14: cli.md#no-such-heading: no heading with the anchor #no-such-heading",
        "docs/example.md:15: missing.md: no such file",
    ];
    assert_eq!(broken, expected);
}
