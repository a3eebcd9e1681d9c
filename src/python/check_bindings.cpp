// irlint.check, Finding and Report: the pipeline of `irlint check` (pipeline/check_run.hpp) run with the GIL
// released, its findings kept, and the report writers of the command line behind to_json() and the others.

#include <chrono>
#include <filesystem>

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include "pipeline/check_run.hpp"
#include "policy/rule_selection.hpp"
#include "python/bindings.hpp"
#include "python/checks.hpp"
#include "python/errors.hpp"
#include "report/report.hpp"

namespace py = pybind11;

namespace irlint::python {

namespace {

// irlint.LayerRef: a named tuple (id, name, type), so that both finding.layer.name and finding.layer[1] read.
// Made once, when the module is imported; kept for the life of the process (never destroyed after Python).
py::object* layer_ref_type = nullptr;

py::object layer_tuple(const LayerRef& layer) {
    if (layer.id.empty() && layer.name.empty() && layer.type.empty()) return py::none();
    return (*layer_ref_type)(model_text(layer.id), model_text(layer.name), model_text(layer.type));
}

void bind_layer_ref(py::module_& m) {
    py::object type = py::module_::import("collections").attr("namedtuple")("LayerRef", "id name type");
    type.attr("__module__") = "irlint";
    type.attr("__doc__") = "The layer (IR) or node (ONNX) a finding is about: id, name, type.";
    m.attr("LayerRef") = type;
    layer_ref_type = new py::object(type);
}

py::str finding_repr(const Finding& f) {
    return model_text(fmt::format("<irlint.Finding {}:{}: {} [{}]>", f.path, f.d.line, severity_name(f.d.severity), f.d.rule));
}

// What a check produced, as the command line would report it.
struct Report {
    std::vector<FileResult> files;
    Summary summary;
    size_t hidden_notes = 0;
    std::vector<std::string> files_with_errors;
    int exit_code = 0;
    std::string base_dir;  // the working directory of the check: SARIF URIs are relative to it

    std::vector<Finding> findings() const {
        std::vector<Finding> out;
        for (const FileResult& f : files)
            for (const Diagnostic& d : f.diagnostics) out.push_back({f.path, d});
        return out;
    }

    size_t finding_count() const {
        size_t n = 0;
        for (const FileResult& f : files) n += f.diagnostics.size();
        return n;
    }

    std::string render(std::string_view format) const {
        ReportOptions options;
        options.base_dir = base_dir;
        const auto reporter = make_reporter(format, options);
        std::string out = reporter->begin();
        for (const FileResult& f : files) out += reporter->file(f);
        out += reporter->end(summary);
        if (format == "text") out += files_with_errors_line(files_with_errors) + hidden_notes_line(hidden_notes);
        return out;
    }
};

std::vector<std::string> strings_of(const py::object& value, const char* argument) {
    if (value.is_none()) return {};
    if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
    std::vector<std::string> out;
    try {
        for (const auto& item : value) out.push_back(py::str(item).cast<std::string>());
    } catch (const py::error_already_set&) {
        throw py::type_error(fmt::format("{}: expected a str or a list of str", argument));
    }
    return out;
}

std::vector<std::string> paths_of(const py::object& paths) {
    if (py::isinstance<py::str>(paths) || py::isinstance<py::bytes>(paths) || py::hasattr(paths, "__fspath__"))
        return {path_arg(paths)};
    std::vector<std::string> out;
    for (const auto& item : paths) out.push_back(path_arg(item));
    return out;
}

std::vector<std::string> severity_overrides(const py::object& severity) {
    std::vector<std::string> out;
    if (severity.is_none()) return out;
    for (const auto& [rule, level] : severity.cast<py::dict>())
        out.push_back(py::str(rule).cast<std::string>() + "=" +
                      (level.is_none() ? std::string("off") : py::str(level).cast<std::string>()));
    return out;
}

void set_config(CheckRequest& request, const py::object& config) {
    if (config.is_none()) return;
    if (py::isinstance<py::bool_>(config)) {
        if (config.cast<bool>()) throw py::value_error("config: a path, None (discover irlint.toml) or False (none)");
        request.discover_config = false;
        return;
    }
    request.config = path_arg(config);
}

std::string level_of(const py::object& level, const char* argument) {
    if (level.is_none()) return "";
    const auto text = level.cast<std::string>();
    if (!parse_severity(text)) raise_usage_error(fmt::format("{}: expected error, warning or note, not '{}'", argument, text));
    return text;
}

CheckRequest request_for(const py::object& paths, const py::object& select, const py::object& ignore,
                         const py::object& severity, const py::object& config, const py::object& min_severity,
                         std::optional<int> threads, std::optional<double> timeout, const py::object& exclude) {
    CheckRequest r;
    r.paths = paths_of(paths);
    r.select = strings_of(select, "select");
    r.ignore = strings_of(ignore, "ignore");
    r.severities = severity_overrides(severity);
    r.excludes = strings_of(exclude, "exclude");
    set_config(r, config);
    r.min_severity = level_of(min_severity, "min_severity");
    r.default_min_severity = Severity::note;
    if (threads) {
        r.jobs = *threads;
        if (r.jobs < 1 || r.jobs > 1024) raise_usage_error(fmt::format("threads: {} not in [1 - 1024]", r.jobs));
    }
    if (timeout) {
        r.timeout_per_file = *timeout;
        if (!(r.timeout_per_file >= 0)) raise_usage_error("timeout_per_file: expected a number of seconds >= 0");
    }
    r.list_checked_layers = true;
    r.keep_files = true;
    r.check_onnx = [](const std::string& path, bool, bool) { return check_onnx_path(path); };
    return r;
}

[[noreturn]] void raise_failure(const CheckFailure& failure) {
    if (failure.kind == CheckFailure::Kind::config) raise_config_error(failure.message);
    raise_usage_error(failure.message);
}

void warn_problems(const std::vector<std::string>& problems) {
    for (const auto& p : problems)  // an error when warnings are turned into errors (-W error)
        if (PyErr_WarnEx(PyExc_RuntimeWarning, to_valid_utf8(p).c_str(), 1) != 0) throw py::error_already_set();
}

// The pipeline with the GIL released; Ctrl-C stops it and raises KeyboardInterrupt here.
std::optional<CheckRun> run_interruptibly(const CheckRequest& request, CheckFailure& failure,
                                          std::vector<std::string>& problems) {
    const InterruptWatch watch;
    CheckHooks hooks;
    hooks.idle = [&] { watch.poll(); };
    hooks.cancelled = [&] { return watch.interrupted(); };
    std::optional<CheckRun> run;
    {
        py::gil_scoped_release release;
        run = run_checks(request, hooks, failure, problems);
    }
    watch.raise_if_interrupted();
    return run;
}

Report report_of(CheckRun& run, std::chrono::steady_clock::time_point start) {
    Report report;
    report.summary = run.summary;
    report.summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.files = std::move(run.files);
    report.hidden_notes = run.hidden_notes;
    report.files_with_errors = std::move(run.files_with_errors);
    report.exit_code = run.exit_code();
    std::error_code ec;
    report.base_dir = std::filesystem::current_path(ec).string();
    return report;
}

Report check(const py::object& paths, const py::object& select, const py::object& ignore, const py::object& severity,
             const py::object& config, const py::object& min_severity, std::optional<int> threads,
             std::optional<double> timeout, const py::object& exclude) {
    const auto start = std::chrono::steady_clock::now();
    keep_freed_memory();
    const CheckRequest request = request_for(paths, select, ignore, severity, config, min_severity, threads, timeout, exclude);
    CheckFailure failure;
    std::vector<std::string> problems;
    std::optional<CheckRun> run = run_interruptibly(request, failure, problems);
    warn_problems(problems);
    if (!run) raise_failure(failure);
    return report_of(*run, start);
}

void bind_finding(py::module_& m) {
    py::class_<Finding>(m, "Finding", "One finding: what `irlint check` prints on one line.")
        .def_property_readonly("rule", [](const Finding& f) { return f.d.rule; }, "The rule id, e.g. 'output-shape-mismatch'.")
        .def_property_readonly("severity", [](const Finding& f) { return std::string(severity_name(f.d.severity)); },
                               "'error', 'warning' or 'note' (after the severity overrides).")
        .def_property_readonly("path", [](const Finding& f) { return path_text(f.path); }, "The file, as the walk reached it.")
        .def_property_readonly("line", [](const Finding& f) { return f.d.line; }, "The line in the file; 0 when none.")
        .def_property_readonly("layer", [](const Finding& f) { return layer_tuple(f.d.layer); },
                               "The layer the finding is about, a LayerRef (id, name, type), or None.")
        .def_property_readonly("message", [](const Finding& f) { return model_text(f.d.message); }, "The message, with its arithmetic.")
        .def_property_readonly("fingerprint", [](const Finding& f) { return f.d.fingerprint; },
                               "16 hex digits that stay when lines move (what --baseline files hold).")
        .def_property_readonly("port", [](const Finding& f) { return model_text(f.d.port); },
                               "The port id the finding is about; '' when none.")
        .def("__repr__", finding_repr)
        .def("__str__", [](const Finding& f) { return model_text(finding_line(f.path, f.d, Palette::plain())); })
        .def(py::self == py::self)
        .def("__hash__", [](const Finding& f) { return py::hash(py::make_tuple(path_text(f.path), f.d.line, f.d.rule, f.d.fingerprint, model_text(f.d.message))); });
}

void bind_report(py::module_& m) {
    py::class_<Report>(m, "Report",
                       "The result of irlint.check: the findings of every file and the totals, as `irlint check` "
                       "reports them. Iterating yields the findings; len() is their number.")
        .def_property_readonly("findings", &Report::findings, "Every finding, file by file in path order.")
        .def_property_readonly("errors", [](const Report& r) { return r.summary.errors; }, "How many errors.")
        .def_property_readonly("warnings", [](const Report& r) { return r.summary.warnings; }, "How many warnings.")
        .def_property_readonly("notes", [](const Report& r) { return r.summary.notes; }, "How many notes.")
        .def_property_readonly("files", [](const Report& r) {
            py::list out;
            for (const FileResult& f : r.files) out.append(path_text(f.path));
            return out;
        }, "The files checked, in path order.")
        .def_property_readonly("layers", [](const Report& r) { return r.summary.layers; }, "Layers in the files.")
        .def_property_readonly("checked", [](const Report& r) { return r.summary.checked; },
                               "Layers whose shapes were inferred and compared.")
        .def_property_readonly("checked_by_invariants", [](const Report& r) { return r.summary.checked_by_invariants; },
                               "Layers whose outputs depend on an unknown value, compared by what holds whatever "
                               "it is (element counts, permutations, the dims kept); not in checked.")
        .def_property_readonly("exit_code", [](const Report& r) { return r.exit_code; },
                               "The exit code `irlint check` would give: 0 clean, 1 findings at --fail-on or a file "
                               "that could not be checked, 2 an internal error.")
        .def_property_readonly("ok", [](const Report& r) { return r.exit_code == 0; }, "exit_code == 0.")
        .def("__iter__", [](const Report& r) { return py::iter(py::cast(r.findings())); })
        .def("__len__", &Report::finding_count)
        .def("__repr__", [](const Report& r) {
            return fmt::format("<irlint.Report {} files, {} errors, {} warnings, {} notes>", r.summary.files,
                               r.summary.errors, r.summary.warnings, r.summary.notes);
        })
        .def("to_json", [](const Report& r) { return model_text(r.render("json")); },
             "The JSON report: the bytes of `irlint check --format json` for the same run.")
        .def("to_sarif", [](const Report& r) { return model_text(r.render("sarif")); },
             "The SARIF 2.1.0 report, URIs relative to the working directory of the check.")
        .def("to_junit", [](const Report& r) { return model_text(r.render("junit")); }, "The JUnit XML report.")
        .def("to_text", [](const Report& r) { return model_text(r.render("text")); },
             "The text report, uncolored, with its summary table (including the wall time).");
}

}  // namespace

void bind_check(py::module_& m) {
    bind_layer_ref(m);
    bind_finding(m);
    bind_report(m);
    m.def("check", check, py::arg("paths"), py::kw_only(), py::arg("select") = py::none(),
          py::arg("ignore") = py::none(), py::arg("severity") = py::none(), py::arg("config") = py::none(),
          py::arg("min_severity") = py::none(), py::arg("threads") = py::none(),
          py::arg("timeout_per_file") = py::none(), py::arg("exclude") = py::none(),
          R"(Checks IR (.xml) and ONNX (.onnx) files and directories, as `irlint check` does.

paths: a path (str or os.PathLike) or a list of them; directories are searched for *.xml and *.onnx.
select, ignore: rule ids (a str "a,b" or a list). severity: {rule: "error"|"warning"|"note"|"off"}.
config: an irlint.toml for every path, None to use the nearest irlint.toml of each file, False for none.
min_severity: the lowest severity kept in the report (default: note, as the JSON report).
threads: files checked in parallel (-j; default: the hardware's). timeout_per_file: seconds per file.
exclude: globs of paths to skip (--exclude).

The GIL is released while the files are checked; Ctrl-C raises KeyboardInterrupt.
Raises UsageError (a missing path, an unknown rule, ...) and ConfigError (an invalid irlint.toml).)");
    bind_infer(m);
    bind_shape(m);
}

}  // namespace irlint::python
