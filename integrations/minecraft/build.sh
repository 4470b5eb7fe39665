#!/bin/sh
# Builds skald-minecraft/target/skald-minecraft-<version>.jar and runs the JUnit tests (Maven arguments
# replace the default `package`). Where Debian's Java packages are installed (liblog4j2-java, junit5,
# maven-debian-helper) it builds offline against their repository, /usr/share/maven-repo; elsewhere
# Maven downloads the same versions from Maven Central.
set -eu
cd "$(dirname "$0")"
if [ -f /etc/maven/settings-debian.xml ] && [ -d /usr/share/maven-repo/org/apache/logging/log4j/log4j-core/2.19.0 ]; then
  set -- -o -s /etc/maven/settings-debian.xml "$@"
fi
case " $* " in
  *" package "*|*" test "*|*" verify "*|*" compile "*|*" clean "*) exec mvn -B -q "$@" ;;
  *) exec mvn -B -q "$@" package ;;
esac
