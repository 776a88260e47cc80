_viz__parse() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="viz__parse"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        viz__parse)
            opts="-x -y -s -d -j -h -V --chart --format --label --value --series --aggregate --time-unit --filter --bins --max-groups --calculate --fold --fold-as --normalize --title --subtitle --x-label --y-label --unit --sort --stack --scale --x-scale --trend --max-points --keep --downsample --delimiter --decimal --dates --header --no-header --strict --threads --grammar --mark --rule --band --follow --extract --interval --window --rate --x --columns --id --facet --facet-columns --facet-scales --spark --generate --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --chart)
                    COMPREPLY=($(compgen -W "bar line table point hist heatmap box spark" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "csv tsv json jsonl markdown args events" -- "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -x)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --value)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -y)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --series)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -s)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --aggregate)
                    COMPREPLY=($(compgen -W "count sum mean median min max distinct" -- "${cur}"))
                    return 0
                    ;;
                --time-unit)
                    COMPREPLY=($(compgen -W "year quarter month yearmonth yearmonthdate week day hours minutes" -- "${cur}"))
                    return 0
                    ;;
                --filter)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bins)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-groups)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --calculate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fold-as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --normalize)
                    COMPREPLY=($(compgen -W "row column" -- "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --subtitle)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --x-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --y-label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --unit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sort)
                    COMPREPLY=($(compgen -W "none asc desc" -- "${cur}"))
                    return 0
                    ;;
                --stack)
                    COMPREPLY=($(compgen -W "zero normalize" -- "${cur}"))
                    return 0
                    ;;
                --scale)
                    COMPREPLY=($(compgen -W "linear log sqrt" -- "${cur}"))
                    return 0
                    ;;
                --x-scale)
                    COMPREPLY=($(compgen -W "linear log sqrt" -- "${cur}"))
                    return 0
                    ;;
                --trend)
                    COMPREPLY=($(compgen -W "linear loess" -- "${cur}"))
                    return 0
                    ;;
                --max-points)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --keep)
                    COMPREPLY=($(compgen -W "top first last" -- "${cur}"))
                    return 0
                    ;;
                --downsample)
                    COMPREPLY=($(compgen -W "even minmax lttb" -- "${cur}"))
                    return 0
                    ;;
                --delimiter)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --decimal)
                    COMPREPLY=($(compgen -W ". ," -- "${cur}"))
                    return 0
                    ;;
                --dates)
                    COMPREPLY=($(compgen -W "dmy mdy" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mark)
                    COMPREPLY=($(compgen -W "line area point bar" -- "${cur}"))
                    return 0
                    ;;
                --rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --band)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --extract)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --x)
                    COMPREPLY=($(compgen -W "sample time" -- "${cur}"))
                    return 0
                    ;;
                --columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --facet)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --facet-columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --facet-scales)
                    COMPREPLY=($(compgen -W "shared free" -- "${cur}"))
                    return 0
                    ;;
                --generate)
                    COMPREPLY=($(compgen -W "completions man bash zsh fish powershell" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _viz__parse -o nosort -o bashdefault -o default viz-parse
else
    complete -F _viz__parse -o bashdefault -o default viz-parse
fi
