#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "policy/config.hpp"

using namespace irlint;

namespace {

// Writes `text` to a fresh irlint.toml in a temporary directory and loads it.
struct TempConfig {
    std::filesystem::path dir;
    std::filesystem::path file;
    explicit TempConfig(const std::string& text) {
        char name[] = "/tmp/irlint-config-XXXXXX";
        dir = mkdtemp(name);
        file = dir / "irlint.toml";
        std::ofstream(file) << text;
    }
    ~TempConfig() { std::filesystem::remove_all(dir); }
    std::optional<Config> load(std::string& error) const { return load_config(file.string(), error); }
};

}  // namespace

TEST_CASE("a configuration file sets rules, levels, paths and overrides") {
    const TempConfig t(R"(select = ["output-shape-mismatch", "output-type-mismatch", "attr-invalid"]
ignore = ["attr-invalid"]
exclude = ["legacy/*"]
fail-on = "warning"
min-severity = "note"
[severity]
output-type-mismatch = "warning"
attr-invalid = "off"
[[overrides]]
paths = ["generated/**"]
ignore = ["output-shape-mismatch"]
[[overrides]]
paths = ["generated/strict/*"]
select = ["output-shape-mismatch"]
severity = { output-shape-mismatch = "note" }
)");
    std::string error;
    const auto c = t.load(error);
    REQUIRE_MESSAGE(c, error);
    CHECK(c->root == t.dir);
    CHECK(*c->fail_on == "warning");
    CHECK(*c->min_severity == Severity::note);
    CHECK(c->excludes("legacy/a.xml"));
    CHECK_FALSE(c->excludes("models/a.xml"));
    CHECK(c->digest.size() == 16);

    const RuleSettings top = c->rules_for("models/a.xml");
    CHECK(top.select->size() == 3);
    CHECK(top.ignore == std::set<std::string>{"attr-invalid"});
    CHECK(top.severity.at("output-type-mismatch") == Severity::warning);
    CHECK_FALSE(top.severity.at("attr-invalid").has_value());

    const RuleSettings gen = c->rules_for("generated/x/a.xml");
    CHECK(gen.ignore == std::set<std::string>{"attr-invalid", "output-shape-mismatch"});

    const RuleSettings strict = c->rules_for("generated/strict/a.xml");  // both overrides, the later wins
    CHECK(*strict.select == std::set<std::string>{"output-shape-mismatch"});
    CHECK(strict.severity.at("output-shape-mismatch") == Severity::note);
}

TEST_CASE("a configuration may name check-failed or its old id check-timeout, and cannot hide it") {
    const TempConfig t(R"(select = ["attr-invalid"]
ignore = ["check-timeout"]
[severity]
check-failed = "off"
[[overrides]]
paths = ["*"]
ignore = ["check-failed"]
severity = { check-timeout = "note" }
)");
    std::string error;
    const auto c = t.load(error);
    REQUIRE_MESSAGE(c, error);
    const RuleSettings rules = c->rules_for("a.xml");
    CHECK(rules.ignore == std::set<std::string>{"check-failed"});
    CHECK(rules.severity.at("check-failed") == Severity::note);
    CHECK(rules.severity.count("check-timeout") == 0);
    const Diagnostic unchecked{
        Severity::error, "check-failed", "irlint could not check the file: out of memory", 0, {}};
    Diagnostics ds = {unchecked, {Severity::error, "output-shape-mismatch", "m", 4, {}}};
    rules.selection().apply(ds);
    CHECK(ds == Diagnostics{unchecked});
}

TEST_CASE("an invalid configuration names the file, the line and the valid choices") {
    struct Case {
        const char* text;
        const char* message;  // after "<file>:"
    };
    const Case cases[] = {
        {"select = [\"attr-invalid\"]\nfail_on = \"error\"\n",
         "2: unknown key 'fail_on'; valid keys: select, ignore, exclude, fail-on, min-severity, severity, overrides"},
        {"[severity]\noutput-type-mismatch = \"loud\"\n",
         "2: unknown level 'loud' for output-type-mismatch; valid levels: error, warning, note, off"},
        {"ignore = [\n \"attr-invalid\",\n \"attr-invalidd\"]\n", "3: unknown rule 'attr-invalidd'; valid rules: "},
        {"fail-on = \"note\"\n", "1: unknown level 'note' for fail-on; valid levels: error, warning, never"},
        {"fail-on = 1\n", "1: 'fail-on' must be a string: error, warning or never"},
        {"exclude = \"a/*\"\n", "1: 'exclude' must be an array of strings"},
        {"overrides = 3\n", "1: 'overrides' must be an array of tables ([[overrides]])"},
        {"\n[[overrides]]\nignore = [\"attr-invalid\"]\n", "2: [[overrides]] needs 'paths', a list of globs"},
        {"select = [\n", "1: not valid TOML: Error while parsing array: encountered end-of-file"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        const TempConfig t(c.text);
        std::string error;
        CHECK_FALSE(t.load(error));
        CAPTURE(error);
        CHECK(error.rfind(t.file.string() + ":" + c.message, 0) == 0);
    }
}

TEST_CASE("globs cross directories, and a glob without a slash also matches the file name") {
    CHECK(glob_matches("legacy/**", "legacy/a/b.xml"));
    CHECK(glob_matches("legacy/*", "legacy/a/b.xml"));
    CHECK(glob_matches("*.xml", "a/b/c.xml"));
    CHECK(glob_matches("c.xml", "a/b/c.xml"));
    CHECK_FALSE(glob_matches("b/c.xml", "a/b/c.xml"));
    CHECK_FALSE(glob_matches("legacy/*", "models/legacy.xml"));
}

TEST_CASE("the nearest irlint.toml is found, and none above a directory holding .git") {
    const TempConfig outer("");
    const auto repo = outer.dir / "repo";
    std::filesystem::create_directories(repo / ".git");
    std::filesystem::create_directories(repo / "models" / "sub");
    CHECK_FALSE(find_config(repo / "models" / "sub"));
    std::ofstream(repo / "irlint.toml") << "";
    CHECK(find_config(repo / "models" / "sub") == repo / "irlint.toml");
    std::ofstream(repo / "models" / "irlint.toml") << "";
    CHECK(find_config(repo / "models" / "sub") == repo / "models" / "irlint.toml");
    CHECK(find_config(outer.dir) == outer.file);
}

TEST_CASE("non-ASCII characters reach the TOML library only as escapes in strings") {
    // In string values (all four kinds), quoted keys and comments they are read as they are.
    const TempConfig values("# modèles hérités\nexclude = [\"modèles/**\", 'archivé/*', \"\"\"é\"\"\", '''a\\\"é'''''"
                            ", \"\"\"a\\\n  ﻽\"\"\"]\n[severity]\n\"attr-invalid\" = \"off\" # é\n");
    std::string error;
    const auto config = values.load(error);
    CAPTURE(error);
    REQUIRE(config);
    CHECK(config->exclude == std::vector<std::string>{"modèles/**", "archivé/*", "é", "a\\\"é''", "a﻽"});
    // A quoted key is a key like any other.
    const TempConfig key("fail-on = \"never\"\n[severity]\n\"é\" = \"off\"\n");
    CHECK_FALSE(key.load(error));
    CHECK(error.rfind(key.file.string() + ":3: unknown rule 'é'", 0) == 0);
    // Outside strings and comments, after a backslash, or not UTF-8: refused with the line, whatever the
    // library would have made of it.
    struct Case {
        std::string text;
        std::string message;  // after "<file>:"
    };
    for (const Case& c : {Case{"select = []\nfail-on = neveré\n",
                               "2: not valid TOML: U+00E9 outside a string or a comment (keys that are not quoted "
                               "and values that are not strings are ASCII)"},
                          {"[é]\n", "1: not valid TOML: U+00E9 outside a string or a comment (keys that are not "
                                    "quoted and values that are not strings are ASCII)"},
                          {"\nexclude = [\"a\\é\"]\n", "2: not valid TOML: '\\' before U+00E9 is no escape sequence"},
                          {"# a\n#\xC3\x28\n", "2: not valid UTF-8 (byte 0xC3); TOML files are UTF-8"},
                          {"exclude = [\"\xE0\x80\xAF\"]\n", "1: not valid UTF-8 (byte 0xE0); TOML files are UTF-8"}}) {
        CAPTURE(c.text);
        const TempConfig t(c.text);
        CHECK_FALSE(t.load(error));
        CHECK(error == t.file.string() + ":" + c.message);
    }
    // What the library makes of a quote after a bare value, or of a string in a bare key, is an error, and no
    // crash.
    for (const char* text : {"fail-on = 999'oudé'\n", "fail-on = \"never\"\nselect = x\"é\"\n"}) {
        const TempConfig t(text);
        CHECK_FALSE(t.load(error));
        CHECK(error.find("not valid TOML") != std::string::npos);
    }
    const TempConfig inline_table("exclude = [{ \"é\" = 1 }]\n");
    CHECK_FALSE(inline_table.load(error));
    CHECK(error == inline_table.file.string() + ":1: 'exclude' must be an array of strings");
}

TEST_CASE("text that breaks what the TOML library takes for granted is an error, not an abort") {
    // toml++ 3.3 asserts (or, with NDEBUG under clang, assumes) that a key follows a table header's '[' and
    // that no '}' stands where an array element does; irlint builds it with neither.
    struct Case {
        std::string text;
        std::string message;  // after "<file>:"
    };
    std::string error;
    for (const Case& c : {Case{"fail-on = \"never\"\n[[= \"warning\"\n",
                               "2: not valid TOML: Error while parsing key: expected bare key starting character or "
                               "string delimiter, saw '=' (column 3)"},
                          {"exclude = [ }\n", "1: not valid TOML: Error while parsing value: could not determine value type (column 13)"}}) {
        CAPTURE(c.text);
        const TempConfig t(c.text);
        CHECK_FALSE(t.load(error));
        CHECK(error == t.file.string() + ":" + c.message);
    }
}
