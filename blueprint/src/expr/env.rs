//! The variable environment ([`Env`]) expressions and templates run against.

use super::value::Value;

/// Named values an expression can read (parameters, computed values, `answer`, ...).
///
/// A small vector, not a hash map: blueprints bind a dozen names or so, where a linear scan
/// beats hashing, and rebinding an existing name allocates nothing (item generation rebinds
/// every name on every draw).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Env {
    values: Vec<(String, Value)>,
}

impl Env {
    /// An empty environment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `name` to `value`, replacing any previous binding.
    pub fn set(&mut self, name: &str, value: Value) {
        match self.values.iter_mut().find(|(bound, _)| bound == name) {
            Some((_, slot)) => *slot = value,
            None => self.values.push((name.to_owned(), value)),
        }
    }

    /// The value bound to `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(bound, _)| bound == name)
            .map(|(_, value)| value)
    }

    /// Removes and returns the binding of `name`.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let index = self.values.iter().position(|(bound, _)| bound == name)?;
        Some(self.values.swap_remove(index).1)
    }

    /// Whether `name` is bound.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Number of bindings.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are no bindings.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl<N: Into<String>> FromIterator<(N, Value)> for Env {
    fn from_iter<I: IntoIterator<Item = (N, Value)>>(bindings: I) -> Self {
        let mut env = Env::new();
        for (name, value) in bindings {
            env.set(&name.into(), value);
        }
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_operations() {
        let mut env: Env = [("a", Value::Int(1))].into_iter().collect();
        env.set("b", Value::Bool(true));
        assert_eq!(env.len(), 2);
        assert!(env.contains("a"));
        assert_eq!(env.get("b"), Some(&Value::Bool(true)));
        assert_eq!(env.remove("a"), Some(Value::Int(1)));
        assert_eq!(env.get("a"), None);
        assert!(!Env::new().contains("a"));
        assert!(Env::new().is_empty());
    }
}
