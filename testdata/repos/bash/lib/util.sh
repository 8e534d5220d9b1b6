# Small checks shared by the scripts.

# Succeeds when the tool is on the PATH.
function require_tool {
  command -v "$1" > /dev/null
}
