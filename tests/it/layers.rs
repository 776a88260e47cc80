//! The house's order where the compiler cannot see it. Between crates
//! the compiler keeps the layers (a crate cannot import what it does not
//! depend on; Cargo.toml says what each depends on). Inside a crate it
//! keeps nothing, so this checks, on the source text of crates/*/src:
//! the order of gemline-core's modules (written in its lib.rs doc, the
//! "Layers, lowest first:" line: `term` < `events` < ... < `topic`), that
//! no two sibling modules of any crate import each other (directly or
//! round a longer circle), and that no engine crate (core, parse, render,
//! provider, memory, agent) sees clap's parser types or the config file,
//! and that gem-ask's engine (crates/agent) reads no environment variable.
//! Test code (the item under a column-0 `#[cfg(test)]`: a test module,
//! inline or in its own file) may use any layer; the code after it is
//! checked like the rest.
//!
//! The checker works on source text: `crate::`, `super::` and `self::`
//! paths (brace groups expanded) resolved to the modules of the file tree;
//! a name a parent re-exports from a child (`pub use child::Name`) counts
//! as that child, so a circle through a parent's re-export is still seen.
//! Every crate keeps its layer's folder under the layer's name
//! (crates/parse/src/parse/), so the crates' trees read as one tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path: `["agent", "toolbox"]`; the crate root is empty.
type Module = Vec<String>;

/// One file's source, for the checker.
struct File {
    path: String,
    module: Module,
    code: String,
}

/// A path inside a crate's `src/` (`agent/toolbox/setup.rs`) as its module.
fn module_of(rel: &str) -> Module {
    let rel = rel.trim_end_matches(".rs");
    let mut parts: Vec<String> = rel.split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code a file holds outside its tests, comments and strings left
/// out so that a path in a doc line or a message is not an import.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("#[cfg(test)]") {
            skip_item(&mut lines);
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        out.push_str(&without_strings(line));
        out.push('\n');
    }
    out
}

/// A line with its strings' contents dropped (a `"` inside a char literal
/// or an escaped quote is rare enough in paths' company to ignore).
fn without_strings(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut prev = ' ';
    for c in line.chars() {
        if c == '"' && prev != '\\' && prev != '\'' {
            in_str = !in_str;
            out.push('"');
        } else if !in_str {
            out.push(c);
        }
        prev = c;
    }
    out
}

/// Skips the item under a `#[cfg(test)]`: its further attributes, then
/// up to its `;` (`mod tests;`) or the brace that closes its block.
fn skip_item<'a>(lines: &mut impl Iterator<Item = &'a str>) {
    let mut depth = 0usize;
    let mut opened = false;
    for line in lines.by_ref() {
        let code = without_strings(line.split("//").next().unwrap_or(""));
        let code = code.replace("'{'", "").replace("'}'", "");
        if !opened && code.trim_start().starts_with("#[") {
            continue;
        }
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if (opened && depth == 0) || (!opened && code.trim_end().ends_with(';')) {
            return;
        }
    }
}

/// The files of one crate's `src/` (its binaries' `src/bin/` left out),
/// named `crates/NAME/src/REL`.
fn read_tree(root: &Path, name: &str) -> Vec<File> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                if p != root.join("bin") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&p).unwrap();
                files.push(File {
                    path: format!("crates/{name}/src/{rel}"),
                    module: module_of(&rel),
                    code: code_of(&text),
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Every `crate::`, `super::` and `self::` path in `code`, brace groups
/// expanded: `super::{a, b::{c, d}}` is `super::a`, `super::b::c`, ...
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let boundary = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        match head {
            Some(h) if boundary => {
                let (found, used) = expand(&code[i..]);
                out.extend(found);
                i += used.max(h.len());
            }
            _ => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

/// The paths of one `a::b::{c, d::e}` at the start of `s`, and the bytes
/// it took.
fn expand(s: &str) -> (Vec<Vec<String>>, usize) {
    let mut segs: Vec<String> = Vec::new();
    let mut i = 0;
    let b = s.as_bytes();
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if i > start {
            segs.push(s[start..i].to_string());
        }
        if s[i..].starts_with("::{") {
            i += 3;
            let mut depth = 1;
            let open = i;
            while i < b.len() && depth > 0 {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                i += 1;
            }
            // A group the text cut short (a line of a longer `use`) ends
            // where the text does.
            let end = if depth == 0 { i - 1 } else { i };
            let inner = &s[open..end.max(open)];
            let mut found = Vec::new();
            for part in split_top(inner) {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let (subs, _) = expand(part);
                for sub in subs {
                    let mut p = segs.clone();
                    p.extend(sub.into_iter().filter(|x| x != "self"));
                    found.push(p);
                }
            }
            return (found, i);
        }
        if s[i..].starts_with("::")
            && s[i + 2..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            i += 2;
            continue;
        }
        return (vec![segs], i);
    }
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// What the checker knows of the tree: its modules, and the names each
/// module re-exports from one of its children.
struct Tree {
    modules: BTreeSet<Module>,
    reexports: BTreeMap<Module, BTreeMap<String, String>>,
}

impl Tree {
    fn new(files: &[File]) -> Tree {
        let modules: BTreeSet<Module> = files.iter().map(|f| f.module.clone()).collect();
        let mut reexports: BTreeMap<Module, BTreeMap<String, String>> = BTreeMap::new();
        for f in files {
            // Whole statements, so that a `pub use` over several lines is
            // read whole.
            for stmt in f.code.split(';') {
                let stmt = stmt.replace('\n', " ");
                let at = ["pub use ", "pub(crate) use "]
                    .iter()
                    .filter_map(|k| stmt.rfind(k))
                    .max();
                let Some(at) = at else { continue };
                let t = &stmt[at..];
                let Some(rest) = t
                    .strip_prefix("pub use ")
                    .or_else(|| t.strip_prefix("pub(crate) use "))
                else {
                    continue;
                };
                let rest = rest.strip_prefix("self::").unwrap_or(rest);
                let child = rest.split("::").next().unwrap_or_default().to_string();
                let mut child_module = f.module.clone();
                child_module.push(child.clone());
                if !modules.contains(&child_module) {
                    continue;
                }
                for p in paths(&format!("self::{rest}")) {
                    if let Some(name) = p.last() {
                        // `pub use child::{Name as Alias}`: the alias is the name.
                        let name = name.clone();
                        reexports
                            .entry(f.module.clone())
                            .or_default()
                            .insert(name, child.clone());
                    }
                }
                // `Name as Alias` pieces.
                for piece in rest.split([',', '{', '}']) {
                    if let Some((_, alias)) = piece.split_once(" as ") {
                        let alias = alias.trim().trim_end_matches(';').to_string();
                        reexports
                            .entry(f.module.clone())
                            .or_default()
                            .insert(alias, child.clone());
                    }
                }
            }
        }
        Tree { modules, reexports }
    }

    /// The module a path names, seen from `from` (the file's module, whose
    /// own items `self::` names); `None` for a path outside the crate.
    fn resolve(&self, from: &Module, path: &[String]) -> Option<Module> {
        let mut base: Module = match path.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self") => from.clone(),
            Some("super") => {
                let mut m = from.clone();
                m.pop();
                m
            }
            _ => return None,
        };
        let mut rest = &path[1..];
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        for seg in rest {
            let mut next = base.clone();
            next.push(seg.clone());
            if self.modules.contains(&next) {
                base = next;
                continue;
            }
            if let Some(child) = self.reexports.get(&base).and_then(|r| r.get(seg)) {
                base.push(child.clone());
            }
            break;
        }
        Some(base)
    }
}

/// The layer order from lib.rs's doc line `//! Layers, lowest first: a,
/// b, c.` (it may run on over several `//!` lines, up to the full stop).
fn layer_order(lib_rs: &str) -> Vec<String> {
    let doc: String = lib_rs
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{} ", l.trim()))
        .collect();
    let start = doc
        .find("Layers, lowest first:")
        .expect("lib.rs names its layers")
        + "Layers, lowest first:".len();
    let list = &doc[start..];
    let end = list
        .find('.')
        .expect("the layer list ends with a full stop");
    list[..end]
        .split([',', '<'])
        .map(|s| s.trim().trim_matches('`').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Every breach of the order in `files`, as lines for a person.
fn check(files: &[File], order: &[String]) -> Vec<String> {
    let tree = Tree::new(files);
    let rank = |m: &str| order.iter().position(|o| o == m);
    let mut problems = Vec::new();
    // Sibling graphs: parent module -> child -> children it imports.
    let mut siblings: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut witness: BTreeMap<(Module, String, String), String> = BTreeMap::new();
    for f in files {
        if let Some(top) = f.module.first()
            && f.path.starts_with(CORE)
            && rank(top).is_none()
        {
            problems.push(format!(
                "{}: module `{top}` is not in gemline-core's layer list",
                f.path
            ));
        }
        for p in paths(&f.code) {
            let Some(target) = tree.resolve(&f.module, &p) else {
                continue;
            };
            let (Some(ft), Some(tt)) = (f.module.first(), target.first()) else {
                continue;
            };
            if let (Some(a), Some(b)) = (rank(ft), rank(tt))
                && b > a
            {
                problems.push(format!(
                    "{}: `{}` runs up the layer order ({ft} is below {tt})",
                    f.path,
                    p.join("::")
                ));
            }
            // The common ancestor, and each side's child of it.
            let common = f
                .module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common < f.module.len() && common < target.len() && common > 0 {
                let parent: Module = f.module[..common].to_vec();
                let (a, b) = (f.module[common].clone(), target[common].clone());
                witness
                    .entry((parent.clone(), a.clone(), b.clone()))
                    .or_insert_with(|| format!("{} uses {}", f.path, p.join("::")));
                siblings
                    .entry(parent)
                    .or_default()
                    .entry(a)
                    .or_default()
                    .insert(b);
            }
        }
    }
    for (parent, graph) in &siblings {
        for cycle in cycles(graph) {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| witness[&(parent.clone(), w[0].clone(), w[1].clone())].clone())
                .collect();
            problems.push(format!(
                "circle between the modules of {}: {} ({})",
                parent.join("::"),
                cycle.join(" -> "),
                steps.join("; ")
            ));
        }
    }
    problems
}

/// One circle per strongly connected group of `graph` (as a closed walk).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut seen_in_cycle: BTreeSet<String> = BTreeSet::new();
    for start in graph.keys() {
        if seen_in_cycle.contains(start) {
            continue;
        }
        // A shortest path back to `start`, by breadth.
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        let mut closed = None;
        while let Some(n) = queue.pop_front() {
            for m in graph.get(&n).into_iter().flatten() {
                if m == start {
                    closed = Some(n.clone());
                    break;
                }
                if !prev.contains_key(m) {
                    prev.insert(m.clone(), n.clone());
                    queue.push_back(m.clone());
                }
            }
            if closed.is_some() {
                break;
            }
        }
        if let Some(last) = closed {
            let mut walk = vec![start.clone()];
            let mut n = last;
            let mut back = vec![n.clone()];
            while n != *start {
                n = prev[&n].clone();
                if n != *start {
                    back.push(n.clone());
                }
            }
            back.reverse();
            walk.extend(back);
            walk.push(start.clone());
            seen_in_cycle.extend(walk.iter().cloned());
            found.push(walk);
        }
    }
    found
}

/// The crates of the engines: they take plain options, resolved by the
/// programs' fronts (crates/viz, crates/ask) from flags and the config
/// file (crates/config).
const ENGINES: [&str; 6] = ["core", "parse", "render", "provider", "memory", "agent"];

/// gemline-core's files, whose modules keep an order among themselves.
const CORE: &str = "crates/core/src/";

/// Engines take plain options: no clap parser types, no matches, no
/// config file.
fn engine_leaks(files: &[File]) -> Vec<String> {
    let mut problems = Vec::new();
    for f in files {
        if !ENGINES
            .iter()
            .any(|e| f.path.starts_with(&format!("crates/{e}/src/")))
        {
            continue;
        }
        for needle in [
            "clap::Parser",
            "derive(Parser",
            "clap::Args",
            "derive(Args",
            "ArgMatches",
            "#[arg(",
            "#[command(",
        ] {
            if f.code.contains(needle) {
                problems.push(format!("{}: an engine sees clap's `{needle}`", f.path));
            }
        }
    }
    problems
}

/// The one file of the agent that reads the process's environment: where
/// a spawned child's environment is built (`secrets::hidden_here`, the
/// variables the child would inherit and must not get).
const AGENT_ENV_READERS: [&str; 1] = ["crates/agent/src/agent/toolbox/secrets.rs"];

/// gem-ask's engine reads no environment variable: its front reads them
/// once (`agent::environ`). `env::var` covers `var`, `var_os`, `vars` and
/// `vars_os`; `from_process` is the terminal's variables read;
/// `sessions_dir()` finds the data directory from `HOME` or `XDG_DATA_HOME`.
fn agent_env_reads(files: &[File]) -> Vec<String> {
    files
        .iter()
        .filter(|f| f.path.starts_with("crates/agent/src/"))
        .filter(|f| !AGENT_ENV_READERS.contains(&f.path.as_str()))
        .flat_map(|f| {
            ["env::var", "from_process", "sessions_dir()"]
                .into_iter()
                .filter(|n| f.code.contains(n))
                .map(|n| format!("{}: the engine reads the environment (`{n}`)", f.path))
        })
        .collect()
}

/// Every crate's files, and gemline-core's layer order.
fn lib_files() -> (Vec<File>, Vec<String>) {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        files.extend(read_tree(&dir.join("src"), &name));
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let core = std::fs::read_to_string(crates.join("core/src/lib.rs")).unwrap();
    (files, layer_order(&core))
}

#[test]
fn imports_run_down_the_layers_and_close_no_circle() {
    let (files, order) = lib_files();
    assert!(files.len() > 100, "read {} files", files.len());
    let problems = check(&files, &order);
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn engines_see_no_flags_and_no_config_file() {
    let (files, _) = lib_files();
    let problems = engine_leaks(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_agent_reads_no_environment_variable() {
    let (files, _) = lib_files();
    let problems = agent_env_reads(&files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The check can fail: a read in an agent file is found, the same read
    // in the front or in the one exception is not.
    let file = |path: &str, code: &str| File {
        path: path.to_string(),
        module: Vec::new(),
        code: code.to_string(),
    };
    let read = "let k = std::env::var(\"K\");\nlet t = TermEnv::from_process();\n\
                let d = session::sessions_dir()?;\n";
    let found = agent_env_reads(&[
        file("crates/agent/src/agent/setup.rs", read),
        file("crates/ask/src/app/gem_ask/mod.rs", read),
        file(AGENT_ENV_READERS[0], read),
    ]);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found
            .iter()
            .all(|p| p.starts_with("crates/agent/src/agent/setup.rs"))
    );
}

/// The checker itself: an upward import inside gemline-core, a circle of
/// siblings (also through a parent's re-export and a brace group), and a
/// clap type in an engine crate are each found; the same tree without them
/// is clean.
#[test]
fn the_checker_finds_what_it_is_for() {
    let order: Vec<String> = ["term", "events", "spec"].map(String::from).to_vec();
    let file = |krate: &str, path: &str, code: &str| File {
        path: format!("crates/{krate}/src/{path}"),
        module: module_of(path),
        code: code_of(code),
    };
    let clean = || {
        vec![
            file("core", "lib.rs", "pub mod term;\npub mod events;\n"),
            file("core", "term/mod.rs", "pub fn diag() {}\n"),
            file("core", "events/mod.rs", "use crate::term::diag;\n"),
            file(
                "parse",
                "parse/mod.rs",
                "mod rows;\nmod table;\nmod fast;\npub use table::Plan;\nuse crate::term::diag;\n",
            ),
            file("parse", "parse/rows.rs", "pub struct Row;\n"),
            file(
                "parse",
                "parse/table.rs",
                "use super::rows::Row;\npub struct Plan;\n",
            ),
            file(
                "parse",
                "parse/fast.rs",
                "use super::{rows::Row, Plan};\n// crate::render::x in a comment\nlet s = \"crate::app::y\";\n",
            ),
            file("render", "render/mod.rs", "use crate::parse::Plan;\n"),
            file(
                "viz",
                "app/mod.rs",
                "use crate::render;\n#[derive(clap::Parser)]\nstruct Args;\n",
            ),
        ]
    };
    assert_eq!(check(&clean(), &order), Vec::<String>::new());
    assert_eq!(engine_leaks(&clean()), Vec::<String>::new());

    let mut up = clean();
    up.push(file("core", "term/color.rs", "use crate::events::Event;\n"));
    let p = check(&up, &order);
    assert!(
        p.len() == 1 && p[0].contains("runs up the layer order"),
        "{p:?}"
    );

    // rows -> table through the parent's re-export of Plan, and fast ->
    // rows through a brace group: with table -> rows, a circle.
    let mut circle = clean();
    circle[4] = file(
        "parse",
        "parse/rows.rs",
        "use super::Plan;\npub struct Row;\n",
    );
    let p = check(&circle, &order);
    assert!(
        p.len() == 1 && p[0].contains("rows -> table -> rows"),
        "{p:?}"
    );

    let mut leak = clean();
    leak.push(file(
        "render",
        "render/args.rs",
        "#[derive(clap::Parser)]\npub struct Flags { #[arg(long)] x: bool }\n",
    ));
    let p = engine_leaks(&leak);
    assert_eq!(p.len(), 2, "{p:?}");

    // Test code may use any layer.
    let mut tests = clean();
    tests.push(file(
        "core",
        "term/grammar.rs",
        "fn f() {}\n#[cfg(test)]\nmod tests { use crate::spec::x; }\n",
    ));
    tests.push(file(
        "core",
        "term/style.rs",
        "#[cfg(test)]\n#[path = \"t.rs\"]\nmod tests;\n#[cfg(test)]\nmod more {\n    fn f() {\n        let _ = '}';\n    }\n    use crate::spec::y;\n}\n",
    ));
    assert_eq!(check(&tests, &order), Vec::<String>::new());

    // The code after a test module is read: an import up the order there
    // is seen.
    let mut after = clean();
    after.push(file(
        "core",
        "term/width.rs",
        "#[cfg(test)]\nmod tests {\n    use super::*;\n}\nuse crate::events::Event;\n",
    ));
    let p = check(&after, &order);
    assert!(
        p.len() == 1 && p[0].contains("runs up the layer order"),
        "{p:?}"
    );
}

#[test]
fn the_layer_list_is_read_from_the_doc() {
    let doc = "//! Intro.\n//!\n//! Layers, lowest first: `term`, `events`,\n//! `spec` < `app`. Then more.\n";
    assert_eq!(layer_order(doc), ["term", "events", "spec", "app"]);
}
