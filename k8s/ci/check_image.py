"""Inspects an image tarball that Jib built (./mvnw -Pimages): an OCI image layout whose config runs the service as a
non-root user, sizes the heap from the container's memory (JAVA_TOOL_OPTIONS) and keeps dependencies, resources and
classes in separate layers, so that a code change ships only the small top layers.

Usage: check_image.py <jib-image.tar> <module> <main class>
"""

import json
import sys
import tarfile


def main(tar_path, module, main_class):
    problems = []
    with tarfile.open(tar_path) as tar:
        def blob(digest):
            return json.load(tar.extractfile("blobs/sha256/" + digest.split(":", 1)[1]))

        names = tar.getnames()
        if "oci-layout" not in names or "index.json" not in names:
            sys.exit(f"{tar_path}: not an OCI image layout (no oci-layout or index.json)")
        index = json.load(tar.extractfile("index.json"))
        descriptor = index["manifests"][0]
        reference = descriptor.get("annotations", {}).get("org.opencontainers.image.ref.name", "")
        manifest = blob(descriptor["digest"])
        config = blob(manifest["config"]["digest"])

    if manifest.get("mediaType") != "application/vnd.oci.image.manifest.v1+json":
        problems.append(f"manifest is {manifest.get('mediaType')}, not an OCI manifest")
    if f"/{module}:" not in reference:
        problems.append(f"image reference {reference!r} does not name {module}")
    runtime = config.get("config", {})
    user = runtime.get("User", "")
    if user.split(":")[0] in ("", "0", "root"):
        problems.append(f"runs as root (User {user!r})")
    environment = dict(e.split("=", 1) for e in runtime.get("Env", []))
    if "MaxRAMPercentage" not in environment.get("JAVA_TOOL_OPTIONS", ""):
        problems.append("JAVA_TOOL_OPTIONS does not size the heap from the container (-XX:MaxRAMPercentage)")
    entrypoint = runtime.get("Entrypoint") or []
    if not entrypoint or entrypoint[0] != "java" or entrypoint[-1] != main_class:
        problems.append(f"entrypoint {entrypoint} does not start {main_class}")
    layers = [h.get("comment", "") for h in config.get("history", []) if not h.get("empty_layer")]
    for layer in ("dependencies", "resources", "classes"):
        if layer not in layers:
            problems.append(f"no separate {layer!r} layer (layers: {layers})")

    if problems:
        for problem in problems:
            print(f"   image {module}: {problem}")
        sys.exit(1)
    print(f"   image {reference}: OCI, user {user}, {len(manifest['layers'])} layers ({', '.join(layers)}), "
          f"JAVA_TOOL_OPTIONS={environment['JAVA_TOOL_OPTIONS']!r}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
