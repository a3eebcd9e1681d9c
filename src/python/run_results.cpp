#include "python/run_results.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/stl.h>

#include "core/text.hpp"
#include "report/map_view.hpp"
#include "report/run_report.hpp"
#include "python/arrays.hpp"

namespace irlint::python {

namespace py = pybind11;

std::optional<Mismatch> first_mismatch(const Comparison& c, const std::vector<int64_t>& shape) {
    if (!c.first_mismatch) return std::nullopt;
    return Mismatch{unravel_index(*c.first_mismatch, shape), c.first_expected, c.first_actual};
}

std::optional<Mismatch> worst_mismatch(const std::optional<ErrorDetail>& detail, const std::vector<int64_t>& shape) {
    if (!detail) return std::nullopt;
    return Mismatch{unravel_index(detail->worst, shape), detail->worst_expected, detail->worst_actual};
}

namespace {

// "not_compared": the run's status as a Python identifier.
std::string status_name(RunStatus s) {
    std::string name(run_status_name(s));
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

py::tuple as_tuple(const std::vector<int64_t>& values) { return py::cast(values).cast<py::tuple>(); }

py::dict histogram_of(const Comparison& c) {
    py::dict histogram;
    const auto& labels = error_bucket_labels();
    for (size_t b = 0; b < labels.size(); ++b) histogram[labels[b]] = c.histogram[b];
    return histogram;
}

template <class T>
py::array_t<uint64_t> counts(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
    py::array_t<uint64_t> out(shape);
    std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0);
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

py::array_t<double> fractions(const MismatchMap& map) {
    py::array_t<double> out({map.grid_rows, map.grid_cols});
    for (int64_t r = 0; r < map.grid_rows; ++r)
        for (int64_t c = 0; c < map.grid_cols; ++c) out.mutable_at(r, c) = map.cell_fraction(r, c);
    return out;
}

py::dict bands_of(const BorderBands& b) {
    py::dict d;
    d["first_row"] = b.first_row, d["last_row"] = b.last_row;
    d["first_column"] = b.first_column, d["last_column"] = b.last_column;
    d["first_plane"] = b.first_plane, d["last_plane"] = b.last_plane;
    d["interior"] = b.interior;
    return d;
}

// The statistics every comparison has, on a class whose objects `get` gives a Comparison of.
template <class Class, class Get>
void def_stats(Class& cls, Get get) {
    cls.def_property_readonly("total", [get](const typename Class::type& self) { return get(self).total; })
        .def_property_readonly("mismatches", [get](const typename Class::type& self) { return get(self).mismatches; })
        .def_property_readonly("max_abs_err", [get](const typename Class::type& self) { return get(self).max_abs_err; })
        .def_property_readonly("max_rel_err", [get](const typename Class::type& self) { return get(self).max_rel_err; })
        .def_property_readonly("mean_abs_err", [get](const typename Class::type& self) { return get(self).mean_abs_err; })
        .def_property_readonly("histogram", [get](const typename Class::type& self) { return histogram_of(get(self)); },
                               "Elements per absolute-error bucket, from '0' (exact) to 'nan/inf'");
}

void bind_mismatch(py::module_& m) {
    py::class_<Mismatch>(m, "Mismatch", "An element outside the tolerance: its index, the expected value, irlint's")
        .def_property_readonly("index", [](const Mismatch& x) { return as_tuple(x.index); })
        .def_readonly("expected", &Mismatch::expected)
        .def_readonly("actual", &Mismatch::actual)
        .def("__repr__", [](const Mismatch& x) {
            return fmt::format("Mismatch(index=({}), expected={}, actual={})", fmt::join(x.index, ", "), x.expected,
                               x.actual);
        });
}

void bind_map(py::module_& m) {
    py::class_<MismatchMap>(m, "MismatchMap",
                            "Where the mismatches are: counts per cell of the output's spatial plane (summed over "
                            "batch, channels, depth), per channel, per depth plane and per border band")
        .def_property_readonly("cells", [](const MismatchMap& x) { return counts(x.cells, {x.grid_rows, x.grid_cols}); },
                               "grid_rows x grid_cols mismatch counts (uint64)")
        .def_property_readonly("fractions", &fractions, "The share of the elements behind each cell that mismatch")
        .def_property_readonly("channels", [](const MismatchMap& x) { return counts(x.channels, {py::ssize_t(x.channels.size())}); })
        .def_property_readonly("depths", [](const MismatchMap& x) { return counts(x.depths, {py::ssize_t(x.depths.size())}); })
        .def_property_readonly("bands", [](const MismatchMap& x) { return bands_of(x.bands); })
        .def_readonly("mismatches", &MismatchMap::mismatches)
        .def_property_readonly("plane", [](const MismatchMap& x) { return py::make_tuple(x.rows, x.cols); })
        .def_property_readonly("block", [](const MismatchMap& x) { return py::make_tuple(x.block_rows, x.block_cols); })
        .def_readonly("channel_block", &MismatchMap::channel_block)
        .def_readonly("depth_block", &MismatchMap::depth_block)
        .def_readonly("elements_per_position", &MismatchMap::elements_per_position)
        .def("text", [](const MismatchMap& x) { return map_text(x, Palette::plain(), ""); },
             "The block map `irlint run` prints")
        .def("to_json", [](const MismatchMap& x) { return map_json(x); }, "The map as `run --format json` writes it")
        .def("__repr__", [](const MismatchMap& x) {
            return fmt::format("MismatchMap(mismatches={}, grid={}x{})", x.mismatches, x.grid_rows, x.grid_cols);
        });
    py::class_<Explanation>(m, "Explanation", "A convention of another producer under which the expected data matches")
        .def_readonly("convention", &Explanation::convention)
        .def_readonly("description", &Explanation::description)
        .def("__repr__", [](const Explanation& x) { return fmt::format("Explanation('{}')", x.convention); });
}

void bind_comparison(py::module_& m) {
    auto cls = py::class_<CompareResult>(m, "Comparison", "irlint.compare's result");
    def_stats(cls, [](const CompareResult& x) -> const Comparison& { return x.comparison; });
    cls.def_property_readonly("matches", [](const CompareResult& x) { return x.comparison.matches(); })
        .def_property_readonly("shape", [](const CompareResult& x) { return as_tuple(x.shape); })
        .def_property_readonly("dtype", [](const CompareResult& x) { return dtype_name(x.type); })
        .def_property_readonly("tolerance", [](const CompareResult& x) {
            return py::make_tuple(x.tolerance.atol, x.tolerance.rtol);
        })
        .def_property_readonly("first_mismatch", [](const CompareResult& x) { return first_mismatch(x.comparison, x.shape); })
        .def_property_readonly("worst_mismatch", [](const CompareResult& x) { return worst_mismatch(x.detail, x.shape); })
        .def_readonly("map", &CompareResult::map)
        .def("__bool__", [](const CompareResult& x) { return x.comparison.matches(); })
        .def("__repr__", [](const CompareResult& x) {
            return fmt::format("Comparison(matches={}, mismatches={}/{}, max_abs_err={:g})",
                               x.comparison.matches() ? "True" : "False", x.comparison.mismatches, x.comparison.total,
                               x.comparison.max_abs_err);
        });
}

void bind_output(py::module_& m) {
    auto cls = py::class_<OutputResult>(m, "OutputResult", "One output of a run: the computed array and its comparison");
    def_stats(cls, [](const OutputResult& x) -> const Comparison& { return x.run.comparison; });
    cls.def_property_readonly("index", [](const OutputResult& x) { return x.run.index; })
        .def_property_readonly("role", [](const OutputResult& x) { return x.run.role; }, "'values' or 'indices'")
        .def_readonly("array", &OutputResult::array, "The computed output (bf16: uint16 bits), irlint's buffer, no copy")
        .def_property_readonly("dtype", [](const OutputResult& x) { return dtype_name(x.run.type); })
        .def_property_readonly("shape", [](const OutputResult& x) { return as_tuple(x.run.shape); })
        .def_property_readonly("tolerance", [](const OutputResult& x) {
            return py::make_tuple(x.run.tolerance.atol, x.run.tolerance.rtol);
        })
        .def_property_readonly("compared", [](const OutputResult& x) { return !x.run.expect_path.empty(); })
        .def_property_readonly("matches", [](const OutputResult& x) { return x.run.comparison.matches(); })
        .def_property_readonly("problem", [](const OutputResult& x) -> std::optional<std::string> {
            if (x.run.comparison.problem.empty()) return std::nullopt;
            return x.run.comparison.problem;
        }, "Why the expected array could not be compared element by element (shape or dtype), or None")
        .def_property_readonly("first_mismatch", [](const OutputResult& x) { return first_mismatch(x.run.comparison, x.run.shape); })
        .def_property_readonly("worst_mismatch", [](const OutputResult& x) { return worst_mismatch(x.run.detail, x.run.shape); })
        .def_property_readonly("map", [](const OutputResult& x) { return x.run.map; })
        .def_property_readonly("explanations", [](const OutputResult& x) { return x.run.explanations; })
        .def_property_readonly("diagnosed", [](const OutputResult& x) { return x.run.diagnosed; },
                               "The conventions of other producers were tried on this mismatch")
        .def("__repr__", [](const OutputResult& x) {
            const OutputRun& o = x.run;
            const std::string compared = o.expect_path.empty() ? std::string("not compared")
                                         : o.comparison.compared()
                                             ? fmt::format("{}/{} mismatches", o.comparison.mismatches, o.comparison.total)
                                             : o.comparison.problem;
            return fmt::format("OutputResult({} {} [{}], {})", o.role, dtype_name(o.type), fmt::join(o.shape, ","),
                               compared);
        });
}

void bind_run_result(py::module_& m) {
    py::class_<RunResult>(m, "RunResult", "What irlint.run computed and compared")
        .def_property_readonly("status", [](const RunResult& x) { return status_name(x.run->status); },
                               "'ok', 'mismatch' or 'not_compared' (a run that cannot run raises)")
        .def_property_readonly("ok", [](const RunResult& x) { return x.run->status != RunStatus::mismatch; },
                               "No compared output mismatches: `irlint run` would exit 0")
        .def_property_readonly("layer", [](const RunResult& x) {
            py::dict d;
            d["id"] = x.run->layer.id, d["name"] = x.run->layer.name, d["type"] = x.run->layer.type;
            d["version"] = x.run->version;
            return d;
        })
        .def_property_readonly("op", [](const RunResult& x) { return x.run->op_name; }, "'MaxPool-8'")
        .def_readonly("input", &RunResult::input, "The input as the layer took it (the caller's array where not copied)")
        .def_readonly("outputs", &RunResult::outputs)
        .def_property_readonly("warnings", [](const RunResult& x) { return x.run->warnings; })
        .def_property_readonly("kernel_ms", [](const RunResult& x) { return x.run->milliseconds; })
        .def("to_json", [](const RunResult& x) { return run_json(*x.run); }, "The run as `irlint run --format json` prints it")
        .def("__repr__", [](const RunResult& x) {
            const LayerRun& r = *x.run;
            return fmt::format("RunResult({} '{}' {}: {}, {} output{}, {:.3f} ms)", printable(r.layer.id),
                               printable(r.layer.name), printable(r.op_name),
                               status_name(r.status), x.outputs.size(), x.outputs.size() == 1 ? "" : "s",
                               r.milliseconds);
        });
}

}  // namespace

void bind_run_results(py::module_& m) {
    bind_mismatch(m);
    bind_map(m);
    bind_comparison(m);
    bind_output(m);
    bind_run_result(m);
}

}  // namespace irlint::python
