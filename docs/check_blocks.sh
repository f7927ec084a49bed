#!/usr/bin/env bash
# Checks every fenced code block of the Markdown files named (README.md, CONTRIBUTING.md, docs/*.md):
# each block must follow a marker comment, the line before its opening fence, that says how it is
# kept true:
#   <!-- file: PATH -->       the block's text occurs verbatim in PATH (relative to the repository
#                              root), a file that is compiled (samples/, docs/examples/), tested
#                              (tests/golden/) or run (scripts/);
#   <!-- walkthrough: WHAT --> run or written by the walkthrough test (docs/walkthrough.sh);
#   <!-- output -->            a listing of what a command prints; the block must be ```text;
#   <!-- output: run -->       the same, and checked: its one `$ elicitgen ...` line is run (from the
#                              repository root, ELICITGEN_BIN) and what it prints must be the rest;
#   <!-- paths -->             a tree of the repository (a ```text block): every name ending in / at
#                              the start of a line is a directory (an indented one inside the last
#                              directory above it at a smaller indent);
#   <!-- read-by: PATH -->     data a test reads (PATH, relative to the repository root, which must
#                              exist and name the Markdown file), e.g. CONTRIBUTING.md's include graph;
#   <!-- commands -->          command lines (text after # is a comment; a line ending in \ goes on):
#                              the first word is a script of the repository that is executable, a
#                              program on PATH (cmake, ctest), or `elicitgen`, whose subcommands must exist and whose every --option
#                              must be in the --help of the (sub)command named (ELICITGEN_BIN).
# A block without a marker, a marker without a block, and a fence that is indented (which could hide
# a block from this check) fail the test, each named by FILE:LINE. So does a relative link, [text](path),
# to a file that does not exist.
# Usage: [ELICITGEN_BIN=path/to/elicitgen] check_blocks.sh REPO_ROOT FILE.md...
set -euo pipefail
root=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "$1" >&2; failures=$((failures + 1)); }

# The help text of `elicitgen WORDS... --help`, cached per subcommand chain.
help_of() {
  local key=${*// /_}
  [[ -f $work/help.$key ]] || "$ELICITGEN_BIN" "$@" --help >"$work/help.$key" 2>&1 || true
  cat "$work/help.$key"
}

# A commands block: each command's program exists; elicitgen's subcommands and options are real.
check_commands() {
  local rel=$1 line=$2 block=$3 command words word chain option
  # Join continued lines, drop comments.
  while IFS= read -r command; do
    command=${command%%#*}
    read -r -a words <<<"$command"
    ((${#words[@]})) || continue
    if [[ ${words[0]} == elicitgen ]]; then
      [[ -n ${ELICITGEN_BIN:-} ]] || { fail "$rel:$line: error: ELICITGEN_BIN is not set"; continue; }
      chain=()
      for word in "${words[@]:1}"; do
        [[ $word =~ ^[a-z]+$ ]] || continue
        # A word is a subcommand when the help of the chain so far lists it as one.
        if help_of "${chain[@]}" | sed -n '/^Subcommands:/,$p' | grep -Eq "^  ${word}( |$)"; then
          chain+=("$word")
        fi
      done
      for option in $(grep -oE -- '--[a-z][a-z-]*' <<<"$command"); do
        # An option may belong to the subcommand or to one of its parents.
        local found=0 n
        for ((n = ${#chain[@]}; n >= 0; n--)); do
          if help_of "${chain[@]:0:n}" | grep -qE -- "(^|[ ,])${option}([ =,]|$)"; then found=1; break; fi
        done
        ((found)) || fail "$rel:$line: error: 'elicitgen ${chain[*]}' has no option $option"
      done
    elif [[ ${words[0]} == */* ]]; then
      [[ -x $root/${words[0]} && -f $root/${words[0]} ]] ||
        fail "$rel:$line: error: ${words[0]} is not an executable file of the repository"
    elif ! command -v "${words[0]}" >/dev/null; then
      fail "$rel:$line: error: ${words[0]} is not a program on PATH"
    fi
  done < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$block")
}

# An output: run block: its first line, `$ elicitgen ARGS`, printed the rest (stdout and stderr).
check_output() {
  local rel=$1 line=$2 block=$3 command
  command=$(head -n 1 "$block")
  [[ $command == '$ elicitgen '* ]] || { fail "$rel:$line: error: an output: run block starts with '\$ elicitgen '"; return; }
  [[ -n ${ELICITGEN_BIN:-} ]] || { fail "$rel:$line: error: ELICITGEN_BIN is not set"; return; }
  local -a args
  read -r -a args <<<"${command#'$ elicitgen '}"
  (cd "$root" && "$ELICITGEN_BIN" "${args[@]}" >"$work/printed" 2>&1) || true
  tail -n +2 "$block" | diff -u - "$work/printed" >"$work/diff" ||
    fail "$rel:$line: error: 'elicitgen ${args[*]}' prints otherwise (+):"$'\n'"$(cat "$work/diff")"
}

# A paths block: the directories it names exist.
check_paths() {
  local rel=$1 line=$2 block=$3 text indent name parents=() depth
  while IFS= read -r text; do
    [[ $text =~ ^( *)([^ ]+) ]] || continue
    indent=${#BASH_REMATCH[1]}
    name=${BASH_REMATCH[2]}
    [[ $name == */ ]] || continue
    depth=$((indent / 2))
    parents=("${parents[@]:0:depth}")
    local path
    path=$(printf '%s' "${parents[@]}")$name
    [[ -d $root/$path ]] || fail "$rel:$line: error: the tree names $path, which is not a directory"
    parents+=("$name")
  done <"$block"
}

for md in "$@"; do
  rel=${md#"$root"/}
  rm -f "$work"/block.* "$work"/meta
  # One file per block (its text, byte for byte without the fences) and one meta line per block:
  # INDEX LINE LANG KIND ARG. Marker problems are printed as "error LINE message".
  awk -v dir="$work" '
    function flush_marker() { kind = ""; arg = "" }
    BEGIN { n = 0; inblock = 0; flush_marker() }
    {
      if (inblock) {
        if ($0 ~ /^```[ \t]*$/) { inblock = 0; close(file); next }
        print $0 > file
        next
      }
      if ($0 ~ /^[ \t]+```/) { print "error " NR " an indented fence (move the block to column 0)" > (dir "/meta"); next }
      if ($0 ~ /^```/) {
        n++; lang = substr($0, 4); gsub(/[ \t]/, "", lang)
        file = dir "/block." n
        printf "" > file
        if (kind == "" || prev != NR - 1) print "error " NR " a code block without a marker comment on the line before it" > (dir "/meta")
        else print n " " NR " " (lang == "" ? "-" : lang) " " kind " " arg > (dir "/meta")
        inblock = 1; flush_marker(); next
      }
      if (match($0, /^<!-- (file|walkthrough|output|commands|paths|read-by)(: [^ ]+)? -->[ \t]*$/)) {
        if (kind != "") print "error " prev " a marker comment without a code block after it" > (dir "/meta")
        line = $0; sub(/^<!-- /, "", line); sub(/ -->[ \t]*$/, "", line)
        split(line, parts, ": "); kind = parts[1]; arg = (2 in parts) ? parts[2] : "-"
        prev = NR; next
      }
      if (kind != "" && $0 !~ /^[ \t]*$/) { print "error " prev " a marker comment without a code block after it" > (dir "/meta"); flush_marker() }
    }
    END { if (inblock) print "error " NR " an unclosed code block" > (dir "/meta") }
  ' "$md"
  touch "$work/meta"
  # Relative links outside code blocks: the file (or directory) must exist, relative to the page.
  while IFS=: read -r number target; do
    target=${target%%#*}
    [[ -z $target || -e $(dirname "$md")/$target ]] || fail "$rel:$number: error: a link to $target, which does not exist"
  done < <(awk '/^```/ { code = !code; next }
                !code { line = $0
                        while (match(line, /\]\([^)#: ]*(#[^)]*)?\)/)) {
                          print NR ":" substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, RSTART + RLENGTH)
                        } }' "$md")
  while read -r index line lang kind arg; do
    if [[ $index == error ]]; then
      fail "$rel:$line: error: $lang $kind $arg"
      continue
    fi
    case $kind in
      file)
        target=$root/$arg
        if [[ ! -f $target ]]; then
          fail "$rel:$line: error: the block names $arg, which does not exist"
        elif ! awk -v blockfile="$work/block.$index" '
            BEGIN { RS = "\001" }
            FILENAME == blockfile { block = $0; next }
            { text = $0 }
            END { exit(index(text, block) > 0 ? 0 : 1) }' "$work/block.$index" "$target"; then
          fail "$rel:$line: error: the block is not (any more) verbatim in $arg"
        fi
        ;;
      output)
        [[ $lang == text ]] || fail "$rel:$line: error: an output listing must be a \`\`\`text block (is '$lang')"
        [[ $arg == run ]] && check_output "$rel" "$line" "$work/block.$index"
        ;;
      walkthrough) ;;  # docs/walkthrough.sh runs it
      read-by)
        if [[ ! -f $root/$arg ]]; then
          fail "$rel:$line: error: the block is read by $arg, which does not exist"
        elif ! grep -qF "$(basename "$rel")" "$root/$arg"; then
          fail "$rel:$line: error: the block is read by $arg, which does not name $(basename "$rel")"
        fi
        ;;
      paths)
        [[ $lang == text ]] || fail "$rel:$line: error: a paths block must be \`\`\`text (is '$lang')"
        check_paths "$rel" "$line" "$work/block.$index"
        ;;
      commands) check_commands "$rel" "$line" "$work/block.$index" ;;
      *) fail "$rel:$line: error: unknown marker '$kind'" ;;
    esac
  done < "$work/meta"
done
if ((failures)); then
  echo "check_blocks: $failures problem(s)" >&2
  exit 1
fi
echo "check_blocks: every code block of $# file(s) is marked and, where it names a file, found in it"
