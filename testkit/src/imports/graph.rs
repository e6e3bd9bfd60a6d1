//! Cycles in the import graph: strongly connected components of the files of one crate,
//! and of its top-level modules (directories and files under `src/`, with the crate root).

use std::collections::BTreeMap;
use std::fmt;

use super::workspace::{FileId, Workspace};

/// Files of one crate that import each other, directly or through one another.
#[derive(Debug)]
pub struct Cycle {
    /// The crate's name.
    pub krate: String,
    /// The files, sorted.
    pub files: Vec<String>,
    /// One import per pair of files in the cycle (the first line that makes it).
    pub links: Vec<Link>,
}

/// Top-level modules of one crate that import each other (information only).
#[derive(Debug)]
pub struct ModuleCycle {
    /// The crate's name.
    pub krate: String,
    /// The modules, sorted; the crate root is named by its file (`lib.rs`).
    pub modules: Vec<String>,
    /// One import per pair of modules in the cycle (the first line that makes it).
    pub links: Vec<Link>,
}

/// One import: `from` names `path` on `line`, which resolves into `to`.
#[derive(Debug)]
pub struct Link {
    /// The importing file (or module).
    pub from: String,
    /// The line of the import in the importing file.
    pub line: usize,
    /// The path as written.
    pub path: String,
    /// The imported file (or module).
    pub to: String,
    /// The importing file, where `from` is a module.
    pub file: String,
}

impl Workspace {
    /// Every cycle of files inside a crate.
    pub fn cycles(&self) -> Vec<Cycle> {
        let mut cycles = Vec::new();
        for (krate, c) in self.crates.iter().enumerate() {
            let nodes: Vec<String> = c.files.iter().map(|f| f.path.clone()).collect();
            let links = self.links_within(krate, |id| id.file);
            for (files, links) in components(&nodes, &links) {
                cycles.push(Cycle {
                    krate: c.name.clone(),
                    files,
                    links,
                });
            }
        }
        cycles
    }

    /// Every cycle of top-level modules inside a crate.
    pub fn module_cycles(&self) -> Vec<ModuleCycle> {
        let mut cycles = Vec::new();
        for (krate, c) in self.crates.iter().enumerate() {
            let mut nodes: Vec<String> = Vec::new();
            let mut node_of = Vec::new();
            for file in &c.files {
                let root = file.path.rsplit('/').next().unwrap_or(&file.path);
                let name = file.module.first().map_or(root, |m| m.as_str()).to_string();
                let node = nodes.iter().position(|n| *n == name).unwrap_or_else(|| {
                    nodes.push(name);
                    nodes.len() - 1
                });
                node_of.push(node);
            }
            let links = self.links_within(krate, |id| node_of[id.file]);
            for (modules, links) in components(&nodes, &links) {
                cycles.push(ModuleCycle {
                    krate: c.name.clone(),
                    modules,
                    links,
                });
            }
        }
        cycles
    }

    /// The imports between files of crate `krate`, as `(from node, to node, edge)` with
    /// the first edge of each pair of distinct nodes, where `node` groups the files.
    fn links_within(
        &self,
        krate: usize,
        node: impl Fn(FileId) -> usize,
    ) -> BTreeMap<(usize, usize), Link> {
        let mut links: BTreeMap<(usize, usize), Link> = BTreeMap::new();
        for edge in &self.edges {
            let to = edge.to();
            if edge.from.krate != krate || to.krate != krate || node(edge.from) == node(to) {
                continue;
            }
            let key = (node(edge.from), node(to));
            let link = Link {
                from: self.path(edge.from).to_string(),
                line: edge.line,
                path: edge.path.clone(),
                to: self.path(to).to_string(),
                file: self.path(edge.from).to_string(),
            };
            let earlier = links
                .get(&key)
                .is_some_and(|l| (l.file.as_str(), l.line) <= (link.file.as_str(), link.line));
            if !earlier {
                links.insert(key, link);
            }
        }
        links
    }
}

/// The strongly connected components of more than one node, each as its sorted node names
/// and the links inside it (named by node).
fn components(
    nodes: &[String],
    links: &BTreeMap<(usize, usize), Link>,
) -> Vec<(Vec<String>, Vec<Link>)> {
    let mut successors = vec![Vec::new(); nodes.len()];
    for &(from, to) in links.keys() {
        successors[from].push(to);
    }
    let mut found = Vec::new();
    for component in strongly_connected(&successors) {
        if component.len() < 2 {
            continue;
        }
        let mut names: Vec<String> = component.iter().map(|&n| nodes[n].clone()).collect();
        names.sort();
        let inner = links
            .iter()
            .filter(|((from, to), _)| component.contains(from) && component.contains(to))
            .map(|((from, to), link)| Link {
                from: nodes[*from].clone(),
                to: nodes[*to].clone(),
                line: link.line,
                path: link.path.clone(),
                file: link.file.clone(),
            });
        let mut inner: Vec<Link> = inner.collect();
        inner.sort_by(|a, b| (&a.from, &a.to).cmp(&(&b.from, &b.to)));
        found.push((names, inner));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Tarjan's strongly connected components of the graph `successors[node]`.
fn strongly_connected(successors: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        successors: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, node: usize) {
            self.index[node] = Some(self.next);
            self.low[node] = self.next;
            self.next += 1;
            self.stack.push(node);
            self.on_stack[node] = true;
            for k in 0..self.successors[node].len() {
                let next = self.successors[node][k];
                match self.index[next] {
                    None => {
                        self.visit(next);
                        self.low[node] = self.low[node].min(self.low[next]);
                    }
                    Some(index) if self.on_stack[next] => {
                        self.low[node] = self.low[node].min(index)
                    }
                    Some(_) => {}
                }
            }
            if Some(self.low[node]) == self.index[node] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                self.out.push(component);
            }
        }
    }
    let n = successors.len();
    let mut tarjan = Tarjan {
        successors,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for node in 0..n {
        if tarjan.index[node].is_none() {
            tarjan.visit(node);
        }
    }
    tarjan.out
}

/// The longest common directory of `paths`, with its trailing `/`.
fn common_dir(paths: &[String]) -> &str {
    let Some(first) = paths.first() else {
        return "";
    };
    let mut len = first.rfind('/').map_or(0, |k| k + 1);
    for path in paths {
        while !path.starts_with(&first[..len]) {
            len = first[..len - 1].rfind('/').map_or(0, |k| k + 1);
        }
    }
    &first[..len]
}

impl fmt::Display for Cycle {
    /// The files, then each import inside the cycle, named below the files' common directory.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = common_dir(&self.files);
        let short = |path: &str| path.strip_prefix(dir).unwrap_or(path).to_string();
        let names: Vec<String> = self.files.iter().map(|p| short(p)).collect();
        writeln!(
            f,
            "{}: {} files under {dir} import each other: {}",
            self.krate,
            self.files.len(),
            names.join(", ")
        )?;
        for link in &self.links {
            writeln!(
                f,
                "    {}:{} `{}` -> {}",
                short(&link.from),
                link.line,
                link.path,
                short(&link.to)
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for ModuleCycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: top-level modules {} import each other",
            self.krate,
            self.modules.join(", ")
        )?;
        for link in &self.links {
            writeln!(
                f,
                "    {} -> {}: {}:{} `{}`",
                link.from, link.to, link.file, link.line, link.path
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(successors: &[&[usize]], expected: &[&[usize]]) {
        let successors: Vec<Vec<usize>> = successors.iter().map(|s| s.to_vec()).collect();
        let mut found: Vec<Vec<usize>> = strongly_connected(&successors)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        found.sort();
        assert_eq!(found, expected, "components of {successors:?}");
    }

    #[test]
    fn strongly_connected_components() {
        check(&[&[1], &[2], &[]], &[]);
        check(&[&[1], &[0]], &[&[0, 1]]);
        check(&[&[1], &[2], &[0, 3], &[4], &[3]], &[&[0, 1, 2], &[3, 4]]);
        check(&[&[1, 2], &[3], &[3], &[0]], &[&[0, 1, 2, 3]]);
    }

    #[test]
    fn common_directories() {
        let paths = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(common_dir(&paths(&["a/b/c.rs", "a/b/d.rs"])), "a/b/");
        assert_eq!(
            common_dir(&paths(&["a/b/c.rs", "a/e.rs", "a/b/f/g.rs"])),
            "a/"
        );
        assert_eq!(common_dir(&paths(&["a/b.rs", "c.rs"])), "");
    }
}
