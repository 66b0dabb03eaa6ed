#!/usr/bin/env zsh
# Prints the completions zsh offers for a command line, one a line ("value -- description"),
# by driving an interactive zsh in a pseudo-terminal and recording what reaches compadd.
# Usage: zsh capture.zsh <fpath dir> '<command line>'
# (After Valodim/zsh-capture-completion, MIT.)
zmodload zsh/zpty || { echo 'error: zsh/zpty missing' >&2; exit 1 }
local fdir=$1 cmdline=$2 line
zpty z zsh -f -i
setopt rcquotes
zpty -w z "fpath=(${(q)fdir} \$fpath)"
zpty -w z 'PROMPT= ; autoload -Uz compinit; compinit -u -d ${TMPDIR:-/tmp}/.zcompdump-capture-$$'
zpty -w z 'bindkey ''^I'' complete-word; null-line () { echo -E - $''\0'' }; compprefuncs=( null-line ); comppostfuncs=( null-line exit )'
zpty -w z 'zstyle '':completion:*'' list-grouped false; zstyle '':completion:*'' insert-tab false; zstyle '':completion:*'' list-separator '''''
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits __dscr __tmp
  if (( $@[(I)-d] )); then
    __tmp=${@[$[${@[(i)-d]}+1]]}
    if [[ $__tmp == \(* ]]; then eval "__dscr=$__tmp"; else __dscr=( "${(@P)__tmp}" ); fi
  fi
  builtin compadd -A __hits -D __dscr "$@"
  setopt localoptions norcexpandparam extendedglob
  typeset -A apre hpre hsuf asuf
  zparseopts -E P:=apre p:=hpre S:=asuf s:=hsuf
  [[ -n $__hits ]] || return
  local i dscr
  for i in {1..$#__hits}; do
    dscr=$__dscr[$i]; [[ -n $dscr ]] && dscr=" -- ${dscr}"
    echo -E - "$IPREFIX$apre$hpre$__hits[$i]$dscr"
  done
}'
zpty -w z 'echo capture-ready'
repeat 50; do
  zpty -r z line
  [[ $line == capture-ready* ]] && break
done
zpty -w z "$cmdline"$'\t'
integer tog=0
while zpty -r z; do :; done | while IFS= read -r line; do
  if [[ $line == *$'\0\r' ]]; then
    (( tog++ )) && exit 0 || continue
  fi
  (( tog )) && echo -E - "${line%$'\r'}"
done
