# bash completion for iotrial(1)
#
# Nothing about iotrial's command line is written down here: the commands,
# each command's options, which options take a value, the values a choice
# takes and the workloads come from the program itself ('iotrial --help',
# 'iotrial help CMD', which have no side effects), parsed once per binary
# and cached; knob names come from 'iotrial knobs --json' for the target
# on the command line. So the completion cannot drift from the program.
# Installed as share/bash-completion/completions/iotrial; it needs bash 4
# and nothing from the bash-completion package.

declare -gA _iotrial_cache 2>/dev/null || true

# Typical values of the knobs whose values are numbers, offered after
# "KNOB=" (any other number is accepted as well).
declare -gA _iotrial_typical=(
	[read_ahead_kb]="128 256 512 1024 2048 4096 8192"
	[nr_requests]="64 128 256 1024"
	[max_sectors_kb]="128 256 512 1024"
	[vm.dirty_ratio]="5 10 20 40"
	[vm.dirty_background_ratio]="1 5 10"
	[vm.dirty_bytes]="64MiB 256MiB 1GiB"
	[vm.dirty_background_bytes]="16MiB 64MiB 256MiB"
	[vm.dirty_expire_centisecs]="500 1000 3000"
	[vm.dirty_writeback_centisecs]="100 500 1500"
)

# _iotrial_text KEY ARGS...: the output of "$_iotrial_bin ARGS...", from
# the cache when the binary has not changed since, into _iotrial_out.
_iotrial_text()
{
	local key="$_iotrial_stamp|$1"
	shift
	if [[ -n $_iotrial_stamp && -n ${_iotrial_cache[$key]+set} ]]; then
		_iotrial_out=${_iotrial_cache[$key]}
		return
	fi
	_iotrial_out=$("$_iotrial_bin" "$@" 2>/dev/null)
	[[ -n $_iotrial_stamp ]] && _iotrial_cache[$key]=$_iotrial_out
}

# _iotrial_add_choices VALUE OPT...: when VALUE lists words ("iops|mbps",
# "0|1", "N|auto"), or is one lowercase word (the one choice there is:
# "fio-iolog3"; a value's name is in capitals), they are the choices of
# each OPT.
_iotrial_add_choices()
{
	local value=$1 alts="" a
	shift
	for a in ${value//|/ }; do
		[[ $a =~ ^[a-z0-9][a-z0-9_-]*$ ]] && alts+=" $a"
	done
	[[ -z $alts || ($value != *\|* && $value != [a-z]*) ]] && return
	for a in "$@"; do
		_iotrial_choices+="$a$alts"$'\n'
	done
}

# _iotrial_parse CMD [WORKLOAD]: read 'iotrial help CMD [WORKLOAD]' into
# _iotrial_opts (every option), _iotrial_valued (" opt opt " of those
# that take a value), _iotrial_choices (lines "opt a b c"),
# _iotrial_workloads and _iotrial_params.
_iotrial_parse()
{
	local line tok t spelling pending="" closed in_usage=1 section=""
	local metrics="" prose=""
	local -a toks
	_iotrial_opts="" _iotrial_valued=" " _iotrial_choices=""
	_iotrial_workloads="" _iotrial_params=""
	_iotrial_text "help:$*" help "$@"
	while IFS= read -r line; do
		if [[ -z $line ]]; then
			in_usage=0 pending="" section=""
			continue
		fi
		# "Metrics: metric (the user's, ...), mbps,\n iops, ... ." (observe)
		if [[ $line == "Metrics: "* || -n $prose ]]; then
			prose+=" ${line#Metrics: }"
			[[ $line == *. ]] || continue
			prose=${prose%.}
			while [[ $prose == *\(*\)* ]]; do
				prose=${prose%%\(*}${prose#*\)}
			done
			for t in ${prose//,/ }; do
				[[ $t =~ ^[a-z][a-z0-9_]*$ ]] && metrics+=" $t"
			done
			prose=""
			continue
		fi
		if [[ $line =~ ^([a-z]+).*:$ ]]; then
			# "workloads", "parameters", "metrics of randread (--metric..."
			section=${BASH_REMATCH[1]}
			continue
		fi
		if [[ $section == workloads && $line =~ ^\ \ ([a-z]+)\  ]]; then
			_iotrial_workloads+=" ${BASH_REMATCH[1]}"
			continue
		fi
		if [[ $section == metrics && $line =~ ^\ \ ([a-z][a-z0-9_]*)\  ]]; then
			metrics+=" ${BASH_REMATCH[1]}"
			continue
		fi
		# a parameter: "  --bs SIZE   help", "  --direct 0|1   help"
		if [[ $section == parameters && $line =~ ^\ \ (--[a-z_]+)(\ [^\ ]+)? ]]; then
			t=${BASH_REMATCH[1]}
			_iotrial_opts+=" $t" _iotrial_valued+="$t "
			_iotrial_params+=" ${t#--}"
			_iotrial_add_choices "${BASH_REMATCH[2]# }" "$t"
			continue
		fi
		# an option line: "  -t, --target TARGET   help",
		# "  --json[=FILE]   help", "  --engine psync|libaio   help"
		if [[ $line =~ ^\ \ (-[a-zA-Z],\ )?(--[a-z][a-z0-9_-]*)(\[=[^]]*\]|\ [^\ ]+)? ]]; then
			spelling=${BASH_REMATCH[1]%, }
			t=${BASH_REMATCH[2]}
			tok=${BASH_REMATCH[3]}
			_iotrial_opts+=" $spelling $t"
			if [[ $tok == \ * ]]; then
				_iotrial_valued+="$spelling $t "
				_iotrial_add_choices "${tok# }" $spelling $t
			fi
			continue
		fi
		((in_usage)) || continue
		# the usage lines: "[-t TARGET | --device DEV] [--json[=FILE]]"
		read -ra toks <<<"$line"
		for tok in "${toks[@]}"; do
			t=${tok##\[}
			closed=0
			[[ $t == *\] ]] && closed=1
			t=${t%%\]*}
			if [[ $t =~ ^(-[a-zA-Z]|--[a-z][a-z0-9_-]*)(\|(-[a-zA-Z]|--[a-z][a-z0-9_-]*))*(\[=.*)?$ ]]; then
				pending=""
				[[ $t == *\[=* ]] && closed=1 t=${t%%\[=*}
				for spelling in ${t//|/ }; do
					_iotrial_opts+=" $spelling"
					((closed)) || pending+=" $spelling"
				done
				continue
			fi
			if [[ -n $pending && $t != [-\|]* && -n $t ]]; then
				# the value of the pending options: "TARGET",
				# "iops|mbps" (choices), "N|auto"
				_iotrial_valued+="${pending# } "
				_iotrial_add_choices "$t" $pending
			fi
			pending=""
		done
	done <<<"$_iotrial_out"
	# the usage lines and the option lines name most options twice
	local -A seen=()
	line=""
	for t in $_iotrial_opts; do
		[[ -n ${seen[$t]+set} ]] && continue
		seen[$t]=1 line+=" $t"
	done
	_iotrial_opts=$line
	[[ -n $_iotrial_opts ]] && _iotrial_opts+=" --help"
	# --metric NAME: the metrics the help lists
	[[ -n $metrics ]] && _iotrial_choices+="--metric$metrics"$'\n'
}

# The commands of 'iotrial --help', into _iotrial_cmds.
_iotrial_commands()
{
	local line in_list=0
	_iotrial_cmds=""
	_iotrial_text "commands" --help
	while IFS= read -r line; do
		[[ $line == commands: ]] && in_list=1 && continue
		[[ -z $line ]] && in_list=0
		((in_list)) && [[ $line =~ ^\ \ ([a-z]+)\  ]] &&
			_iotrial_cmds+=" ${BASH_REMATCH[1]}"
	done <<<"$_iotrial_out"
}

# _iotrial_json_disk JSON: the disk that JSON ('iotrial knobs --json')
# names: its first "device" member, the top-level one (null: none). Not
# a later one: "unavailable" says why there is none under the same key.
_iotrial_json_disk()
{
	local line
	while IFS= read -r line; do
		if [[ $line =~ ^\ *\"device\":\ ?(null|\"([^\"]*)\") ]]; then
			printf '%s' "${BASH_REMATCH[2]}"
			return
		fi
	done <<<"$1"
}

# Knob names for the target or device given on the line (ARGS: -t X or
# --device X, or nothing), into _iotrial_knobs.
_iotrial_knob_names()
{
	local line out="" disk=""
	_iotrial_knobs=""
	if (($#)); then
		out=$("$_iotrial_bin" knobs --json "$@" 2>/dev/null)
		disk=$(_iotrial_json_disk "$out")
	fi
	# no target, or not one with device knobs: the root file system's
	# disk shows what this machine has
	if [[ -z $disk ]]; then
		line=$("$_iotrial_bin" knobs --json -t / 2>/dev/null)
		disk=$(_iotrial_json_disk "$line")
		out+=$'\n'$line
	fi
	# the names it lists, and, with no device at hand, the ones a
	# device would add ("unavailable_knobs", the registry's own list)
	local in_un=0
	while IFS= read -r line; do
		if [[ $line =~ ^\ *\"name\":\ ?\"([^\"]+)\" ]]; then
			_iotrial_knobs+=" ${BASH_REMATCH[1]}"
		elif [[ $line == *'"unavailable_knobs":'* ]]; then
			in_un=1
		elif ((in_un)) && [[ $line =~ ^\ *\"([^\"]+)\" ]]; then
			[[ -n $disk ||
				" $_iotrial_knobs " == *" ${BASH_REMATCH[1]} "* ]] ||
				_iotrial_knobs+=" ${BASH_REMATCH[1]}"
		else
			in_un=0
		fi
	done <<<"$out"
	_iotrial_knobs+=" sysfs: sysctl:"
}

# Candidates for a target: directories, block devices, and for run and
# compare (CMD) scratch:SIZE[:FS].
_iotrial_targets()
{
	local cur=$1 scratch=0 f
	[[ $2 == run || $2 == compare ]] && scratch=1
	if ((scratch)) && [[ $cur == scratch:* ]]; then
		[[ $cur =~ ^scratch:[0-9.]+[A-Za-z]*:[a-z]*$ ]] &&
			compgen -W "${cur%:*}:ext4 ${cur%:*}:xfs" -- "$cur"
		return
	fi
	((scratch)) && [[ scratch: == "$cur"* ]] && echo scratch:
	compgen -d -S / -- "$cur"
	while IFS= read -r f; do
		[[ -b $f ]] && echo "$f"
	done < <(compgen -f -- "$cur")
}

# Candidates for a block device: /dev paths, or names under /sys/class/block.
_iotrial_devices()
{
	local cur=$1 f
	if [[ $cur == /* ]]; then
		while IFS= read -r f; do
			[[ -b $f ]] && echo "$f"
			[[ -d $f && $f == /dev* ]] && echo "$f/"
		done < <(compgen -f -- "$cur")
		return
	fi
	for f in /sys/class/block/*; do
		[[ -e $f ]] && [[ ${f##*/} == "$cur"* ]] && echo "${f##*/}"
	done
}

# _iotrial_knob_choices NAME ARGS...: the values knob NAME takes, as
# words, into _iotrial_vals: the schedulers the device offers (its
# /sys/block/DISK/queue/scheduler), the words of its "allowed" in
# 'iotrial knobs --json' for the target ARGS (atime's modes, 0 1 2), or
# typical values of a number. Empty when nothing fits.
_iotrial_knob_choices()
{
	local name=$1 line out disk="" knob="" allowed="" head
	shift
	_iotrial_vals=""
	out=$("$_iotrial_bin" knobs --json "$@" 2>/dev/null)
	disk=$(_iotrial_json_disk "$out")
	# no device there ("device": null, and why under "unavailable"): the
	# root file system's disk shows what this machine has
	if [[ -z $disk ]]; then
		out=$("$_iotrial_bin" knobs --json -t / 2>/dev/null)
		disk=$(_iotrial_json_disk "$out")
	fi
	while IFS= read -r line; do
		if [[ $line =~ ^\ *\"name\":\ ?\"([^\"]+)\" ]]; then
			knob=${BASH_REMATCH[1]}
		elif [[ $knob == "$name" && $line =~ ^\ *\"allowed\":\ ?\"([^\"]*)\" ]]; then
			allowed=${BASH_REMATCH[1]}
		fi
	done <<<"$out"
	if [[ $name == scheduler && -n $disk && -r /sys/block/$disk/queue/scheduler ]]; then
		read -r line <"/sys/block/$disk/queue/scheduler"
		line=${line//\[/} line=${line//\]/}
		_iotrial_vals=$line
		return
	fi
	# "noatime relatime ... (combine: ...)", "0 1 2": a list of words;
	# not "0 or more", "0..100" or "a size such as 256MiB"
	head=${allowed%% (*}
	if [[ $head =~ ^[a-z0-9][a-z0-9-]*(\ [a-z0-9][a-z0-9-]*)*$ &&
		" $head " != *" or "* && " $head " != *" a "* ]]; then
		_iotrial_vals=$head
		return
	fi
	_iotrial_vals=${_iotrial_typical[$name]:-}
}

# _iotrial_value_words CUR CHOICES...: "NAME=V" (or "NAME=V1,V2" for
# --vary, a value after each comma) for the values of CHOICES that CUR's
# last value begins.
_iotrial_value_words()
{
	local cur=$1 pre v
	shift
	pre=${cur%%=*}= v=${cur#*=}
	if [[ $v == *,* ]]; then
		pre+=${v%,*}, v=${v##*,}
	fi
	for cur in "$@"; do
		[[ $cur == "$v"* ]] && echo "$pre$cur"
	done
}

# Knob names as KNOB=, with sysfs:PATH and sysctl:NAME completed from
# /sys and /proc/sys. ARGS: where the knobs are (-t X / --device X).
_iotrial_knob_words()
{
	local cur=$1 p
	shift
	if [[ $cur == sysfs:* ]]; then
		for p in $(compgen -f -- "${cur#sysfs:}"); do
			[[ -d $p ]] && echo "sysfs:$p/" || echo "sysfs:$p="
		done
		return
	fi
	if [[ $cur == sysctl:* ]]; then
		p=${cur#sysctl:}
		for p in $(compgen -f -- "/proc/sys/${p//.//}"); do
			p=${p#/proc/sys/}
			[[ -d /proc/sys/$p ]] && echo "sysctl:${p//\//.}." ||
				echo "sysctl:${p//\//.}="
		done
		return
	fi
	# "scheduler=": its values
	if [[ $cur == *=* ]]; then
		_iotrial_knob_choices "${cur%%=*}" "$@"
		_iotrial_value_words "$cur" $_iotrial_vals
		return
	fi
	_iotrial_knob_names "$@"
	for p in $_iotrial_knobs; do
		[[ $p == "$cur"* ]] || continue
		[[ $p == *: ]] && echo "$p" || echo "$p="
	done
}

_iotrial()
{
	local -a w reply
	local cur prev cmd opt="" prefix="" line i workload="" where=() db=()
	local _iotrial_bin=${COMP_WORDS[0]} _iotrial_stamp="" _iotrial_out
	local _iotrial_opts _iotrial_valued _iotrial_choices _iotrial_cmds
	local _iotrial_workloads _iotrial_params _iotrial_knobs _iotrial_vals path

	[[ $_iotrial_bin == \~/* ]] && _iotrial_bin=$HOME/${_iotrial_bin#\~/}
	path=$(type -P "$_iotrial_bin") &&
		_iotrial_stamp="$path|$(stat -c %Y "$path" 2>/dev/null)"

	# Words split at blanks only: bash also splits at '=' and ':', which
	# "--engine=io" and "scratch:1G:" contain; the candidates are made for
	# the whole word and trimmed to bash's part of it at the end.
	line=${COMP_LINE:0:COMP_POINT}
	read -ra w <<<"$line"
	[[ -z $line || $line == *[[:blank:]] ]] && w+=("")
	cur=${w[${#w[@]} - 1]}
	prev=""
	((${#w[@]} > 1)) && prev=${w[${#w[@]} - 2]}
	cmd=""
	((${#w[@]} > 2)) && cmd=${w[1]}

	# the options already on the line that say where knobs are, and
	# which results store show and diff read
	for ((i = 2; i < ${#w[@]} - 1; i++)); do
		case ${w[i]} in
		-t | --target | --device) where=("${w[i]}" "${w[i + 1]}") ;;
		--target=* | --device=*) where=("${w[i]%%=*}" "${w[i]#*=}") ;;
		--db) db=("${w[i]}" "${w[i + 1]}") ;;
		--db=*) db=("${w[i]}") ;;
		esac
	done

	if [[ -z $cmd ]]; then
		_iotrial_commands
		if [[ $cur == -* ]]; then
			reply=($(compgen -W "--help --version" -- "$cur"))
		else
			reply=($(compgen -W "$_iotrial_cmds help" -- "$cur"))
		fi
	elif [[ $cmd == help ]]; then
		# its topics: the commands, and compat (the deprecations)
		_iotrial_commands
		((${#w[@]} == 3)) &&
			reply=($(compgen -W "$_iotrial_cmds compat" -- "$cur"))
	else
		if [[ $cmd == run || $cmd == compare ]] && ((${#w[@]} > 3)) &&
			[[ ${w[2]} != -* ]]; then
			workload=${w[2]}
		fi
		_iotrial_parse "$cmd" $workload
		[[ -z $_iotrial_opts && -n $workload ]] && _iotrial_parse "$cmd"
		# "--opt=value": complete the value, keep the prefix
		if [[ $cur == --*=* ]]; then
			opt=${cur%%=*} prefix=$opt= cur=${cur#*=}
		elif [[ $_iotrial_valued == *" $prev "* ]]; then
			opt=$prev
		fi
		if [[ -n $opt ]]; then
			case $opt in
			-t | --target)
				mapfile -t reply < <(_iotrial_targets "$cur" "$cmd")
				;;
			--device) mapfile -t reply < <(_iotrial_devices "$cur") ;;
			--set)
				mapfile -t reply < <(_iotrial_knob_words "$cur" \
					"${where[@]}")
				;;
			--vary)
				if [[ $cur == *=* && " $_iotrial_params " == *" ${cur%%=*} "* ]]; then
					# a parameter's choices: "engine=psync,io_"
					while IFS= read -r line; do
						[[ $line == "--${cur%%=*} "* ]] &&
							mapfile -t reply < <(_iotrial_value_words \
								"$cur" ${line#* })
					done <<<"$_iotrial_choices"
				else
					mapfile -t reply < <(_iotrial_knob_words "$cur" \
						"${where[@]}"
						[[ $cur == *=* ]] ||
							compgen -S = -W "$_iotrial_params" -- "$cur")
				fi
				;;
			--db | --json) mapfile -t reply < <(compgen -f -- "$cur") ;;
			*)
				while IFS= read -r line; do
					[[ $line == "$opt "* ]] && reply=($(compgen -W \
						"${line#* }" -- "$cur"))
				done <<<"$_iotrial_choices"
				;;
			esac
			reply=("${reply[@]/#/$prefix}")
			cur=$prefix$cur
		elif [[ $cur == -* ]]; then
			reply=($(compgen -W "$_iotrial_opts" -- "$cur"))
		else
			case $cmd in
			run | compare)
				[[ -z $workload ]] && ((${#w[@]} == 3)) &&
					reply=($(compgen -W "$_iotrial_workloads" -- "$cur"))
				;;
			set)
				mapfile -t reply < <(_iotrial_knob_words "$cur" \
					"${where[@]}")
				;;
			watch) mapfile -t reply < <(_iotrial_devices "$cur") ;;
			import) mapfile -t reply < <(compgen -f -- "$cur") ;;
			show | diff | report | export | apply)
				while IFS= read -r line; do
					[[ $line =~ \"id\":\ ?\"([0-9a-f]+)\" ]] &&
						[[ ${BASH_REMATCH[1]} == "$cur"* ]] &&
						reply+=("${BASH_REMATCH[1]}")
				done < <("$_iotrial_bin" log --json "${db[@]}" \
					2>/dev/null)
				;;
			esac
		fi
	fi

	# no space after "KNOB=", "--opt=", "scratch:" or a directory
	for i in "${reply[@]}"; do
		if [[ $i == *[=:/] ]]; then
			compopt -o nospace 2>/dev/null
			break
		fi
	done
	# readline replaces only the text after the last COMP_WORDBREAKS
	# character of the word ('=' and ':' by default): "io" of
	# "--engine=io", nothing of "scheduler=" (COMP_WORDS ends in "=" there,
	# but readline inserts after it): trim the candidates to that part
	local trim=0 k
	for ((k = ${#cur}; k > 0; k--)); do
		if [[ $COMP_WORDBREAKS == *"${cur:k-1:1}"* ]]; then
			trim=$k
			break
		fi
	done
	COMPREPLY=()
	for i in "${reply[@]}"; do
		[[ ${i:0:trim} == "${cur:0:trim}" ]] && COMPREPLY+=("${i:trim}")
	done
}

complete -F _iotrial iotrial
