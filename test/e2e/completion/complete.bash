# Prints the completions bash offers for a command line, one a line, ending each with "|".
# Usage: bash complete.bash '<command line>'. Loads bash-completion, which loads git's
# completion and git-mem's on demand (XDG_DATA_HOME/bash-completion/completions/git-mem).
source /usr/share/bash-completion/bash_completion || exit 3
line=$1
COMP_LINE=$line
COMP_POINT=${#line}
# Words as readline splits them: at blanks, and around the COMP_WORDBREAKS characters = and :.
read -ra words <<<"$line"
[[ $line == *' ' ]] && words+=('')
COMP_WORDS=()
for w in "${words[@]}"; do
  while [[ $w =~ ^([^=:]*)([=:])(.*)$ ]]; do
    [[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
    COMP_WORDS+=("${BASH_REMATCH[2]}")
    w=${BASH_REMATCH[3]}
  done
  COMP_WORDS+=("$w")
done
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
cmd=${COMP_WORDS[0]}
_completion_loader "$cmd" >/dev/null 2>&1
spec=$(complete -p "$cmd" 2>/dev/null) || { echo "no completion for $cmd" >&2; exit 4; }
fn=${spec##*-F }
fn=${fn%% *}
COMPREPLY=()
"$fn" "$cmd" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
[[ ${#COMPREPLY[@]} -eq 0 ]] || printf '%s|\n' "${COMPREPLY[@]}"
