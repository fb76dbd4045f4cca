# npm.profile - npm working on the package in the current project.
#
#   corral --profile npm -- npm install
#   ln -s /usr/bin/corral ~/bin/npm     # then plain "npm install" is confined
#
# npm and the scripts packages run (install hooks, "npm run") may change
# the project (${PROJECT}, see node.profile) and npm's cache, and nothing else of yours: a
# malicious postinstall script cannot read ~/.ssh or write to your other
# projects.  Global installs (npm install -g) are denied: /usr is
# read-only.  Create ~/.npm once (mkdir ~/.npm) before the first run.
# Packages with native code (node-gyp) also need the compiler: add
# --profile gcc.
#
# Tokens for private registries live in ~/.npmrc, which is readable here:
# remove that line from a copy if you keep none.

[profile]
description = npm confined to the project and its cache
include = node
include = network
include = secrets

[filesystem]
cache = ${HOME}/.npm             ; the cache, logs and _npx (made if missing)
rw = -${XDG_CACHE_HOME}/node-gyp ; headers for native modules
ro = -${HOME}/.npmrc
     -/etc/npmrc
     -${XDG_CONFIG_HOME}/npm
     -${HOME}/.gitconfig         ; for dependencies fetched with git

[network]
connect-tcp = 443, 80          ; the registry (HTTPS); HTTP for old tarball URLs
