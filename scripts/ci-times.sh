# Sourced by test.sh: `timed NAME COMMAND...` runs COMMAND and keeps how long it took under NAME;
# ci_times_report prints one `ci-times:` line per step and the total, so that every CI log says
# where its minutes went (CONTRIBUTING.md has the cold and warm figures). A step that fails stops
# the script as before (set -e); the steps before it are printed first.
ci_times=()
ci_times_start=$SECONDS

ci_times_line() {  # NAME SECONDS
  printf 'ci-times: %-20s %3dm%02ds\n' "$1" $(($2 / 60)) $(($2 % 60))
}

ci_times_report() {
  local entry
  for entry in "${ci_times[@]}"; do ci_times_line "${entry%%=*}" "${entry##*=}"; done
  ci_times_line total $((SECONDS - ci_times_start))
}

timed() {  # NAME COMMAND...
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  ci_times+=("$name=$((SECONDS - start))")
  if ((status != 0)); then
    ci_times_report
    return "$status"
  fi
}
