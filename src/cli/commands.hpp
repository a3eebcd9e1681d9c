#pragma once
// Each subcommand: an options struct, a setup function binding it to CLI11, and a run function returning
// the exit code.

#include <string>
#include <vector>


// CLI11 is header-only and costs seconds of every file that includes it: only the files that bind options
// (a subcommand's setup_x, main.cpp) include it.
namespace CLI {
class App;
}  // namespace CLI

namespace irlint::cli {

struct CheckOptions {
    std::vector<std::string> paths;
    std::string format = "text";
    std::string output;
    int jobs = 0;
    std::string shard;
    std::string fail_on;  // empty: the configuration's, else error
    std::vector<std::string> excludes;
    bool quiet = false;
    double timeout_per_file = 0;  // seconds; 0: no limit
    std::vector<std::string> select;      // RULE[,RULE...], repeatable
    std::vector<std::string> ignore;
    std::vector<std::string> severities;  // RULE=LEVEL
    std::string min_severity;             // empty: warning for text, note for the other formats
    bool statistics = false;
    std::string baseline;        // findings whose fingerprint is in this file are not reported
    std::string write_baseline;  // write the fingerprints of every finding to this file
    std::string config;          // this irlint.toml for every path, no discovery
    bool no_config = false;      // ignore irlint.toml files
    bool fix = false;            // rewrite the fixable findings' ports in place
    bool diff = false;           // with fix: print the unified diff instead, write nothing
};
void setup_check(CLI::App& app, CheckOptions& opts);
int run_check(const CheckOptions& opts);

struct InferOptions {
    std::string model;
    std::vector<std::string> layers;
    bool all = false;  // every layer, not only the pooling layers
    std::string format = "text";
    std::vector<std::string> reshape;  // [NAME=]DIMS: infer the whole model again from new input shapes
    std::string output;                // with reshape: write the reshaped IR here
};
void setup_infer(CLI::App& app, InferOptions& opts);
int run_infer(const InferOptions& opts);
int run_infer_reshape(const InferOptions& opts);

struct ShapeOptions {
    std::string op;
    int opset = 0;
    std::vector<std::string> inputs;  // DIMS[:TYPE], in input order
    std::vector<std::string> values;  // INDEX=v1,v2,...
    std::vector<std::string> attrs;
    std::string output_size;
    std::string format = "text";
    std::string domain;  // an ONNX op's: "ai.onnx", "com.microsoft"; empty: an IR op
};
void setup_shape(CLI::App& app, ShapeOptions& opts);
int run_shape(const ShapeOptions& opts);
// The lists of shape's JSON report, which its error document has empty: the pooling ops' or the registry's.
std::vector<std::string> shape_report_lists(const ShapeOptions& opts);

struct RunOptions {
    std::string model;
    std::string layer;
    std::vector<std::string> inputs;
    std::vector<std::string> expects;
    std::vector<std::string> saves;
    std::string data_dir;
    double atol = -1;  // negative: the element type's default
    double rtol = -1;
    std::string format = "text";
    int threads = 0;
    std::string max_memory;
    std::string map_png;  // the mismatch maps as a PNG heatmap; empty: none
    std::string report;   // the HTML report; empty: none
};
void setup_run(CLI::App& app, RunOptions& opts);
int run_run(const RunOptions& opts);

struct MergeOptions {
    std::vector<std::string> reports;
    std::string format = "text";
    std::string output;
    std::string fail_on = "error";
    bool quiet = false;
    std::string min_severity;  // empty: warning for text, note for the other formats
};
void setup_merge(CLI::App& app, MergeOptions& opts);
int run_merge(const MergeOptions& opts);

struct RulesOptions {
    std::string rule;  // empty: the table of every rule
    std::string format = "text";
};
void setup_rules(CLI::App& app, RulesOptions& opts);
int run_rules(const RulesOptions& opts);

struct OpsOptions {
    std::string type;  // empty: every op
    std::string format = "text";
};
void setup_ops(CLI::App& app, OpsOptions& opts);
int run_ops(const OpsOptions& opts);

}  // namespace irlint::cli
