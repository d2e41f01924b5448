//! The native module of the `hashedit` Python package (`hashedit._native`).
//!
//! Wraps [`hashedit_embed::Embedded`]: a `Workspace` class whose methods run
//! the six tools with the GIL released (their keyword options are the
//! fields of the tool's argument struct, checked against its schema), a `Result` of `.text` and `.data`,
//! the `ToolError` exception carrying `.kind`, the pure helpers `tag`,
//! `project` and `tool_definitions`, and `main`, the `hashedit` command
//! line ([`hashedit::run_from`]). The Python layer (`python/hashedit`)
//! re-exports these and types them (`_native.pyi`).

use std::path::PathBuf;
use std::sync::Arc;

use hashedit_embed::{Access, Case, Embedded, Options, Request};
use hashedit_tools::{ToolError as CoreError, ToolName};
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use serde_json::Value;

pyo3::create_exception!(
    hashedit,
    ToolError,
    PyException,
    "A tool refused: nothing was written. `.kind` is the stable kind name \
     (`stale_tag`, `parse_error`, ...); `str(e)` and `.message` the model-facing \
     message, with its live snapshot when there is one."
);

/// A successful tool call.
#[pyclass(frozen, module = "hashedit", name = "Result")]
struct ToolOutput {
    text: String,
    data: Value,
}

#[pymethods]
impl ToolOutput {
    /// Exactly the text the model should read.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The facts of the call as a fresh dict (paths, tags, counts; for an
    /// edit, each file's unified diff under `files[i]["diff"]`).
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.data)
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Result(text={:?})", self.text)
    }
}

/// One workspace root and its session.
#[pyclass(frozen, module = "hashedit", name = "Workspace")]
struct PyWorkspace {
    inner: Arc<Embedded>,
}

#[pymethods]
impl PyWorkspace {
    #[new]
    #[pyo3(signature = (root, *, tag_scheme = "rho", max_output_bytes = 64_000, read_only = false))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        tag_scheme: &str,
        max_output_bytes: usize,
        read_only: bool,
    ) -> PyResult<PyWorkspace> {
        let options = Options {
            tag_scheme: hashedit_embed::parse_scheme(tag_scheme).map_err(PyValueError::new_err)?,
            max_output_bytes,
            access: if read_only {
                Access::ReadOnly
            } else {
                Access::ReadWrite
            },
        };
        let opened = py.detach(|| Embedded::open(&root, options));
        Ok(PyWorkspace {
            inner: Arc::new(opened.map_err(|e| tool_error(py, e))?),
        })
    }

    /// The canonical workspace root.
    #[getter]
    fn root(&self) -> PathBuf {
        self.inner.root().to_path_buf()
    }

    /// The tag scheme, `"rho"` or `"omp"`.
    #[getter]
    fn tag_scheme(&self) -> &'static str {
        self.inner.tag_scheme().name()
    }

    /// Whether `write` and `edit` are refused.
    #[getter]
    fn read_only(&self) -> bool {
        self.inner.access() == Access::ReadOnly
    }

    /// `read_file`.
    #[pyo3(signature = (path, **options))]
    fn read(
        &self,
        py: Python<'_>,
        path: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        self.run(
            py,
            Request::new(ToolName::ReadFile).arg("path", path),
            options,
        )
    }

    /// `grep`.
    #[pyo3(signature = (pattern, **options))]
    fn grep(
        &self,
        py: Python<'_>,
        pattern: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        self.run(
            py,
            Request::new(ToolName::Grep).arg("pattern", pattern),
            options,
        )
    }

    /// `glob`.
    #[pyo3(signature = (pattern, **options))]
    fn glob(
        &self,
        py: Python<'_>,
        pattern: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        self.run(
            py,
            Request::new(ToolName::Glob).arg("pattern", pattern),
            options,
        )
    }

    /// `list_dir` (the root by default).
    #[pyo3(signature = (path = ".".to_string(), **options))]
    fn list_dir(
        &self,
        py: Python<'_>,
        path: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        self.run(
            py,
            Request::new(ToolName::ListDir).arg("path", path),
            options,
        )
    }

    /// `write`.
    #[pyo3(signature = (path, content, **options))]
    fn write(
        &self,
        py: Python<'_>,
        path: String,
        content: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        let request = Request::new(ToolName::Write)
            .arg("path", path)
            .arg("content", content);
        self.run(py, request, options)
    }

    /// `edit`; `dry_run=True` writes nothing and answers with the diffs.
    #[pyo3(signature = (document, **options))]
    fn edit(
        &self,
        py: Python<'_>,
        document: String,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        self.run(
            py,
            Request::new(ToolName::Edit).arg("input", document),
            options,
        )
    }

    /// The approval preview of `document`: each section dry-run against
    /// the live file, or projected when it cannot be.
    fn preview<'py>(&self, py: Python<'py>, document: String) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        let preview = py.detach(move || inner.preview(&document));
        to_python(py, &preview)
    }

    /// Runs a tool by its function-calling name with a dict of arguments.
    #[pyo3(signature = (name, arguments = None))]
    fn call(
        &self,
        py: Python<'_>,
        name: String,
        arguments: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<ToolOutput> {
        let arguments = match arguments {
            Some(value) => from_python(value)?,
            None => Value::Null,
        };
        let request = Request::from_call(&name, arguments).map_err(|e| tool_error(py, e))?;
        self.run(py, request, None)
    }

    fn __repr__(&self) -> String {
        format!("Workspace({:?})", self.inner.root().display().to_string())
    }
}

impl PyWorkspace {
    /// Adds the keyword `options` to `request` and runs it with the GIL
    /// released.
    fn run(
        &self,
        py: Python<'_>,
        request: Request,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ToolOutput> {
        let options = match options {
            Some(dict) => from_python(dict.as_any())?,
            None => Value::Null,
        };
        let request = request
            .options(options, Case::Snake)
            .map_err(|e| tool_error(py, e))?;
        let inner = Arc::clone(&self.inner);
        match py.detach(move || inner.run(request)) {
            Ok(reply) => Ok(ToolOutput {
                text: reply.text,
                data: reply.data,
            }),
            Err(error) => Err(tool_error(py, error)),
        }
    }
}

/// A [`ToolError`] exception with `.kind` and `.message` set.
fn tool_error(py: Python<'_>, error: CoreError) -> PyErr {
    let err = ToolError::new_err(error.message.clone());
    let value = err.value(py);
    if let Err(failed) = value
        .setattr("kind", error.kind.name())
        .and_then(|()| value.setattr("message", error.message))
    {
        return failed;
    }
    err
}

/// The snapshot tag of `data` (bytes or str) under `scheme`.
#[pyfunction]
#[pyo3(signature = (data, scheme = "rho"))]
fn tag(data: &Bound<'_, PyAny>, scheme: &str) -> PyResult<String> {
    let scheme = hashedit_embed::parse_scheme(scheme).map_err(PyValueError::new_err)?;
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(hashedit_embed::tag(bytes.as_bytes(), scheme));
    }
    let text: String = data.extract()?;
    Ok(hashedit_embed::tag(text.as_bytes(), scheme))
}

/// The projection of a (possibly partial) edit document.
#[pyfunction]
fn project<'py>(py: Python<'py>, partial_document: &str) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &hashedit_embed::project_json(partial_document))
}

/// The tools' definitions for function calling.
#[pyfunction]
#[pyo3(signature = (format = "openai", *, read_only = false))]
fn tool_definitions<'py>(
    py: Python<'py>,
    format: &str,
    read_only: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let definitions =
        hashedit_embed::tool_definitions(format, read_only).map_err(PyValueError::new_err)?;
    to_python(py, &Value::Array(definitions))
}

/// The `hashedit` command line; returns its exit status.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(move || hashedit::run_from(argv))
}

fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

fn from_python(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    let json = value.py().import("json")?;
    let text: String = json.call_method1("dumps", (value,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyWorkspace>()?;
    m.add_class::<ToolOutput>()?;
    m.add("ToolError", m.py().get_type::<ToolError>())?;
    m.add_function(wrap_pyfunction!(tag, m)?)?;
    m.add_function(wrap_pyfunction!(project, m)?)?;
    m.add_function(wrap_pyfunction!(tool_definitions, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    Ok(())
}
