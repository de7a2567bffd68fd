"""Checks the Helm chart's rendered manifests for what the Kubernetes API schema cannot see (ADR 0013).

- Images: each one is built by this project (the pom's `images` profile builds <registry>/<module>:<version> for every
  module with an application.yml) or pinned by digest; the pom's Jib base image is pinned by digest too.
- Pods: non-root, CPU and memory requests, a memory limit, readiness and liveness probes (and a startup probe on the
  services), a grace period longer than the preStop sleep; a PodDisruptionBudget for every Deployment and StatefulSet;
  every HPA targets a Deployment that leaves its replica count to it.
- Discovery and wiring: each service's headless Service (publishing not-ready addresses) is the DNS name its member
  looks up, the shared cluster's likewise; every URL and address in the services' configuration names a Service and
  port that exist; every service is given the same topic settings as the shared cluster's hazelcast.yaml (which is
  written out with them for SharedClusterConfigCheck.java).
- Network policies (when a case renders them): each selects pods, names ports those pods have, admits only pods the
  chart renders (or peers given by namespace), and every Deployment and StatefulSet but the gateway's is selected by
  one.
- Dashboards: valid JSON, and every sagaflow_* metric they query is registered by the code.
- Alerts (the PrometheusRule): every sagaflow_* metric they query is registered by the code; each alert has a severity
  (warning or critical), a summary and a description, and a section of docs/alerts.md its runbook_url points to.
  Their rule groups are written to <out>/alerts/sagaflow.rules.yaml, for promtool's unit tests
  (k8s/ci/alerts-test.yaml).
- Tiers: each perf tier matches the reference tiers (node types and counts, replicas and HPA ranges, the dedicated
  Hazelcast node group on Large), every pod can be placed on a node group of its eksctl config (labels, taints), and
  all of them fit at maximum scale (first-fit, with one member per node where anti-affinity is hard).

Usage: check_manifests.py --rendered DIR --out DIR --pom pom.xml --root .
"""

import argparse
import glob
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

import yaml

KUBE_MINOR = "1.35"

# The tiers our numbers are held against (shared/reference/004): node groups without the `tools` one, replicas and
# HPA range of the services and the gateway, shared cluster members and whether they own a node group.
REFERENCE_TIERS = {
    "small": {"nodes": {"system": ("t3.xlarge", 2)}, "hpa": None, "replicas": 1, "members": 3, "dedicated": False},
    "medium": {"nodes": {"system": ("c7i.2xlarge", 3)}, "hpa": (1, 3), "replicas": 1, "members": 3,
               "dedicated": False},
    "large": {"nodes": {"services": ("c7i.4xlarge", 2), "hazelcast": ("c7i.4xlarge", 3)}, "hpa": (2, 5),
              "replicas": 2, "members": 3, "dedicated": True},
}

# vCPU, GiB and the VPC CNI's pod limit (max pods) of the instance types the eksctl configs use.
INSTANCE_TYPES = {
    "t3.xlarge": (4, 16, 58),
    "c7i.2xlarge": (8, 16, 58),
    "c7i.4xlarge": (16, 32, 234),
}
# Per node: what the kubelet sees of the nominal memory, and the DaemonSets' requests (aws-node, kube-proxy, EBS CSI
# node, log and metrics agents), estimated generously.
VISIBLE_MEMORY_SHARE = 0.95
DAEMONSETS_CPU_M = 250
DAEMONSETS_MEMORY_MI = 400
# Cluster add-ons on untainted nodes: two CoreDNS replicas and metrics-server.
ADDONS = [("coredns", 100, 70), ("coredns", 100, 70), ("metrics-server", 100, 200)]

POD_KINDS = ("Deployment", "StatefulSet", "Job", "Pod")
PROJECT_IMAGE = re.compile(r"^(?P<registry>.+)/(?P<module>[a-z][a-z0-9-]*):(?P<tag>[A-Za-z0-9._-]+)$")
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}$")


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, what):
        self.items.append(f"{where}: {what}")


def cpu_m(quantity):
    text = str(quantity)
    return int(float(text[:-1])) if text.endswith("m") else int(float(text) * 1000)


def memory_mi(quantity):
    text = str(quantity)
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024, "Ti": 1024 * 1024, "k": 1000 / 1048576, "M": 1000000 / 1048576,
             "G": 1e9 / 1048576}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text) / 1048576


def load(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def pod_spec(doc):
    if doc["kind"] == "Pod":
        return doc["spec"], doc["metadata"].get("labels", {})
    template = doc["spec"]["template"]
    return template["spec"], template["metadata"].get("labels", {})


def containers(spec):
    return spec.get("initContainers", []) + spec.get("containers", [])


def selects(selector, labels):
    return all(labels.get(k) == v for k, v in (selector or {}).items())


def check_network_policies(case, docs, problems):
    """When a case renders NetworkPolicies: each selects pods, on ports those pods name, from pods the case renders;
    and every Deployment and StatefulSet but the gateway's is selected by one (one left out would accept anyone)."""
    policies = [d for d in docs if d["kind"] == "NetworkPolicy"]
    if not policies:
        return 0
    pods = [(d, *pod_spec(d)) for d in docs if d["kind"] in ("Deployment", "StatefulSet", "Job", "Pod")]
    for policy in policies:
        where = f"{case}: NetworkPolicy {policy['metadata']['name']}"
        selected = [(doc, spec) for doc, spec, labels in pods
                    if selects(policy["spec"]["podSelector"].get("matchLabels"), labels)]
        if not selected:
            problems.add(where, "selects no pod")
        for rule in policy["spec"].get("ingress", []):
            for port in rule.get("ports", []):
                for doc, spec in selected:
                    named = {p.get("name") for c in containers(spec) for p in c.get("ports", [])}
                    if isinstance(port["port"], str) and port["port"] not in named:
                        problems.add(where, f"port {port['port']!r} is not a port of {doc['metadata']['name']}")
            for peer in rule.get("from", []):
                if "podSelector" in peer and "namespaceSelector" not in peer and not any(
                        selects(peer["podSelector"].get("matchLabels"), labels) for _, _, labels in pods):
                    problems.add(where, f"allows pods the chart does not render: {peer['podSelector']}")
    for doc, spec, labels in pods:
        # The gateway is the way in: open to all. Every other long-running component has a policy.
        if doc["kind"] in ("Deployment", "StatefulSet") and labels.get("app.kubernetes.io/component") != "api-gateway" \
                and not any(selects(p["spec"]["podSelector"].get("matchLabels"), labels) for p in policies):
            problems.add(f"{case}: {doc['metadata']['name']}", "no NetworkPolicy selects it")
    return len(policies)


def pom_facts(pom_path, root):
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    tree = ET.parse(pom_path).getroot()
    properties = {p.tag.split("}")[1]: (p.text or "").strip() for p in tree.find("m:properties", ns)}
    version = tree.find("m:version", ns).text.strip()
    profiles = {p.find("m:id", ns).text: p for p in tree.iter("{http://maven.apache.org/POM/4.0.0}profile")}
    builds = "images" in profiles and any(
        g.text == "buildTar" for g in profiles["images"].iter("{http://maven.apache.org/POM/4.0.0}goal"))
    modules = set()
    if builds:
        for m in tree.find("m:modules", ns):
            if os.path.isfile(os.path.join(root, m.text, "src/main/resources/application.yml")):
                modules.add(os.path.basename(m.text))
    return {"version": version, "registry": properties.get("sagaflow.image.registry"),
            "base": properties.get("sagaflow.image.base", ""), "modules": modules}


def check_images(case, docs, pom, problems):
    seen = set()
    for doc in docs:
        if doc["kind"] not in POD_KINDS:
            continue
        spec, _ = pod_spec(doc)
        for c in containers(spec):
            image = c["image"]
            seen.add(image)
            if DIGEST.search(image):
                continue
            m = PROJECT_IMAGE.match(image)
            if not m or m["module"] not in pom["modules"]:
                problems.add(f"{case} {doc['kind']}/{doc['metadata']['name']}",
                             f"image {image} is neither pinned by digest nor built by this project "
                             f"(the images profile builds {sorted(pom['modules'])})")
            elif m["tag"] != pom["version"] or m["registry"] != pom["registry"]:
                problems.add(f"{case} {doc['kind']}/{doc['metadata']['name']}",
                             f"image {image} is not what ./mvnw -Pimages builds "
                             f"({pom['registry']}/{m['module']}:{pom['version']})")
    return seen


def check_pods(case, docs, problems):
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)
    workloads = by_kind.get("Deployment", []) + by_kind.get("StatefulSet", [])
    pdbs = by_kind.get("PodDisruptionBudget", [])
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h for h in by_kind.get("HorizontalPodAutoscaler", [])}
    for doc in workloads + by_kind.get("Job", []) + by_kind.get("Pod", []):
        where = f"{case} {doc['kind']}/{doc['metadata']['name']}"
        spec, labels = pod_spec(doc)
        if not spec.get("securityContext", {}).get("runAsNonRoot"):
            problems.add(where, "pod does not require a non-root user")
        for c in containers(spec):
            resources = c.get("resources", {})
            for key in ("cpu", "memory"):
                if key not in resources.get("requests", {}):
                    problems.add(where, f"container {c['name']} requests no {key}")
            if "memory" not in resources.get("limits", {}):
                problems.add(where, f"container {c['name']} has no memory limit")
            if c.get("securityContext", {}).get("allowPrivilegeEscalation") is not False:
                problems.add(where, f"container {c['name']} may escalate privileges")
        if doc["kind"] in ("Deployment", "StatefulSet"):
            for c in spec["containers"]:
                for probe in ("readinessProbe", "livenessProbe"):
                    if probe not in c:
                        problems.add(where, f"container {c['name']} has no {probe}")
                ports = {p["name"] for p in c.get("ports", [])}
                if doc["kind"] == "Deployment" and "hz" in ports and "startupProbe" not in c:
                    problems.add(where, f"service container {c['name']} has no startupProbe")
                sleep = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
                grace = spec.get("terminationGracePeriodSeconds", 30)
                if grace < sleep + 30:
                    problems.add(where, f"grace period {grace} s leaves under 30 s after the {sleep} s preStop")
            # The trial PostgreSQL is one replica: a budget would either block every drain or allow it anyway.
            trial_database = labels.get("app.kubernetes.io/component") == "postgresql"
            if not trial_database and not any(selects(p["spec"]["selector"].get("matchLabels"), labels) for p in pdbs):
                problems.add(where, "no PodDisruptionBudget selects its pods")
        if doc["kind"] == "Deployment" and doc["metadata"]["name"] in hpas and "replicas" in doc["spec"]:
            problems.add(where, "sets replicas although an HPA scales it (every upgrade would reset the count)")
    deployments = {d["metadata"]["name"] for d in by_kind.get("Deployment", [])}
    for name, hpa in hpas.items():
        if hpa["spec"]["scaleTargetRef"]["kind"] != "Deployment" or name not in deployments:
            problems.add(f"{case} HorizontalPodAutoscaler/{hpa['metadata']['name']}", f"targets no Deployment {name}")


def service_ports(docs):
    """{service name: {port numbers}} and the pod labels each Service selects."""
    services = {}
    for doc in docs:
        if doc["kind"] == "Service":
            services[doc["metadata"]["name"]] = doc
    return services


def check_url(case, where, url, services, problems):
    m = re.match(r"^(?:http://)?([a-z0-9-]+)(?:\.[a-z0-9.-]+)?:(\d+)$", url)
    if not m:
        problems.add(f"{case} {where}", f"{url} is not a service address")
        return
    service = services.get(m[1])
    if service is None or int(m[2]) not in {p["port"] for p in service["spec"]["ports"]}:
        problems.add(f"{case} {where}", f"{url}: no Service {m[1]} with port {m[2]}")


def check_wiring(case, docs, namespace, out, problems):
    services = service_ports(docs)
    templates = [pod_spec(d)[1] for d in docs if d["kind"] in ("Deployment", "StatefulSet")]
    for name, service in services.items():
        if not any(selects(service["spec"].get("selector"), labels) for labels in templates):
            problems.add(f"{case} Service/{name}", "selects no pods of this release")
    configs = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    statefulsets = {d["metadata"]["name"]: d for d in docs if d["kind"] == "StatefulSet"}
    topics = {}
    shared = None
    for name, config in configs.items():
        data = config.get("data", {})
        if "hazelcast.yaml" in data:
            shared = (name, yaml.safe_load(data["hazelcast.yaml"])["hazelcast"])
        if "application.yaml" not in data:
            continue
        app = yaml.safe_load(data["application.yaml"]) or {}
        where = f"ConfigMap/{name}"
        hz = app.get("sagaflow", {}).get("hazelcast")
        for route in app.get("spring", {}).get("cloud", {}).get("discovery", {}).get("client", {}).get(
                "simple", {}).get("instances", {}).values():
            for instance in route:
                check_url(case, where, instance["uri"], services, problems)
        for url in app.get("sagaflow", {}).get("order", {}).get("audit", {}).values():
            check_url(case, where, url, services, problems)
        # The member of the deployable's own cluster: a service's, or the gateway's (rate limits).
        gateway = app.get("sagaflow", {}).get("gateway", {}).get("hazelcast")
        member = hz["service"] if hz else gateway
        if not member:
            continue
        deployment = deployments.get(name)
        if deployment is None:
            problems.add(f"{case} {where}", "configures a member without a Deployment of the same name")
            continue
        dns = member["kubernetes"]["service-dns"] if hz else member["kubernetes-service-dns"]
        headless = services.get(dns.split(".")[0])
        if (headless is None or headless["spec"].get("clusterIP") != "None"
                or not headless["spec"].get("publishNotReadyAddresses")
                or not selects(headless["spec"]["selector"], pod_spec(deployment)[1])
                or member["port"] not in {p["port"] for p in headless["spec"]["ports"]}
                or dns != f"{headless['metadata']['name']}.{namespace}.svc.cluster.local"):
            problems.add(f"{case} {where}", f"the member looks up {dns}, which is not a headless Service that lists "
                                            f"this deployable's replicas, ready or not, on port {member['port']}")
        if member.get("bind-interface") != "${POD_IP}":
            problems.add(f"{case} {where}", "the member does not bind to the pod's IP")
        if not hz:
            continue
        for address in hz["shared"]["addresses"]:
            check_url(case, where, address, services, problems)
        topics[name] = (hz["shared"]["cluster-name"], hz["shared"]["topic"])
    if shared is None:
        problems.add(case, "no ConfigMap with the shared cluster's hazelcast.yaml")
        return
    name, hz = shared
    statefulset = statefulsets.get(name)
    dns = hz["network"]["join"]["kubernetes"]["service-dns"]
    headless = services.get(dns.split(".")[0])
    if (statefulset is None or headless is None or statefulset["spec"]["serviceName"] != headless["metadata"]["name"]
            or not headless["spec"].get("publishNotReadyAddresses")):
        problems.add(f"{case} ConfigMap/{name}", f"members look up {dns}, which is not their StatefulSet's "
                                                 "headless Service publishing not-ready addresses")
    distinct = {json.dumps(t, sort_keys=True) for t in topics.values()}
    if len(distinct) != 1:
        problems.add(case, f"the services are given different shared-topic settings: {sorted(distinct)}")
        return
    cluster, topic = next(iter(topics.values()))
    ttl = re.fullmatch(r"(\d+)s", str(topic["ttl"]))
    if not ttl:
        problems.add(case, f"topic ttl {topic['ttl']} is not in seconds")
        return
    target = os.path.join(out, "shared-cluster", case)
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(target, "hazelcast.yaml"), "w") as f:
        f.write(configs[name]["data"]["hazelcast.yaml"])
    with open(os.path.join(target, "topic.args"), "w") as f:
        f.write(f"{cluster} {topic['prefix']} {topic['shards']} {topic['capacity']} {ttl[1]}\n")


def main_sources(root):
    """The sources of the services' main code, where each meter is registered by its dotted name."""
    sources = ""
    for path in glob.glob(os.path.join(root, "**/src/main/java/**/*.java"), recursive=True):
        with open(path) as f:
            sources += f.read()
    return sources


def check_registered(sources, where, queried, problems):
    """Each sagaflow_* metric queried is a meter the code registers (its Prometheus name less unit and suffix)."""
    for metric in sorted(queried):
        base = re.sub(r"(_seconds)?(_bucket|_count|_sum|_max|_total)?$", "", metric)
        dotted = base.replace("_", ".")
        if f'"{dotted}"' not in sources:
            problems.add(where, f"{metric}: no meter named \"{dotted}\" in the code")


def check_dashboards(sources, docs, problems):
    queried = set()
    for doc in docs:
        if doc["kind"] != "ConfigMap" or "dashboard" not in doc["metadata"]["name"]:
            continue
        for key, text in doc["data"].items():
            try:
                dashboard = json.loads(text)
            except json.JSONDecodeError as e:
                problems.add(f"dashboard {key}", f"not JSON: {e}")
                continue
            for panel in dashboard.get("panels", []):
                for target in panel.get("targets", []):
                    queried.update(re.findall(r"\bsagaflow_[a-z_]+", target.get("expr", "")))
    check_registered(sources, "dashboards", queried, problems)
    return queried


def check_alerts(root, sources, docs, out, problems):
    """The PrometheusRule: its metrics registered by the code, each alert with a severity, a summary, a description
    and a section of docs/alerts.md to point to; its groups written to <out>/alerts for promtool (ADR 0103)."""
    rules = [d for d in docs if d["kind"] == "PrometheusRule"]
    if len(rules) != 1:
        problems.add("alerts", f"{len(rules)} PrometheusRules rendered, expected 1")
        return []
    with open(os.path.join(root, "docs/alerts.md")) as f:
        anchors = {re.sub(r"[^a-z0-9 -]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
                   for line in f if line.startswith("#")}
    queried, alerts = set(), []
    for group in rules[0]["spec"]["groups"]:
        for rule in group["rules"]:
            name = rule.get("alert")
            if not name:
                continue
            alerts.append(name)
            queried.update(re.findall(r"\bsagaflow_[a-z_]+", rule["expr"]))
            if rule.get("labels", {}).get("severity") not in ("warning", "critical"):
                problems.add(f"alert {name}", "severity is neither warning nor critical")
            if not {"summary", "description"} <= rule.get("annotations", {}).keys():
                problems.add(f"alert {name}", "no summary or no description")
            if name.lower() not in anchors:
                problems.add(f"alert {name}", "docs/alerts.md has no section for it")
            runbook = rule.get("annotations", {}).get("runbook_url")
            if runbook is not None and not runbook.endswith(f"#{name.lower()}"):
                problems.add(f"alert {name}", f"runbook_url {runbook} does not point to its section")
    if len(set(alerts)) != len(alerts):
        problems.add("alerts", "an alert name is used twice")
    check_registered(sources, "alerts", queried, problems)
    os.makedirs(os.path.join(out, "alerts"), exist_ok=True)
    with open(os.path.join(out, "alerts", "sagaflow.rules.yaml"), "w") as f:
        yaml.safe_dump({"groups": rules[0]["spec"]["groups"]}, f, sort_keys=False, width=1000)
    return alerts


def eksctl_groups(path):
    with open(path) as f:
        config = yaml.safe_load(f)
    groups = {}
    for g in config.get("managedNodeGroups", []) + config.get("nodeGroups", []):
        groups[g["name"]] = {
            "type": g["instanceType"], "count": g["desiredCapacity"], "labels": g.get("labels", {}),
            "taints": [(t["key"], t.get("value"), t["effect"]) for t in g.get("taints", [])],
        }
    return config, groups


def tolerated(taint, tolerations):
    key, value, effect = taint
    for t in tolerations or []:
        if t.get("effect") not in (None, "", effect):
            continue
        if t.get("operator") == "Exists" and t.get("key") in (None, key):
            return True
        if t.get("key") == key and t.get("value") == value:
            return True
    return False


def eligible(spec, groups):
    return [name for name, g in groups.items()
            if all(g["labels"].get(k) == v for k, v in (spec.get("nodeSelector") or {}).items())
            and all(tolerated(t, spec.get("tolerations")) for t in g["taints"])]


def check_tier(tier, docs, config, groups, problems):
    where = f"tier {tier}"
    reference = REFERENCE_TIERS[tier]
    if str(config["metadata"].get("version")) != KUBE_MINOR:
        problems.add(where, f"eksctl version {config['metadata'].get('version')}, the chart is checked against "
                            f"{KUBE_MINOR}")
    system = {n: (g["type"], g["count"]) for n, g in groups.items() if n != "tools"}
    if system != reference["nodes"]:
        problems.add(where, f"node groups {system}, the reference tier has {reference['nodes']}")
    if "tools" not in groups or not groups["tools"]["taints"]:
        problems.add(where, "no tainted `tools` node group for the load generator")
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h["spec"] for h in docs if h["kind"] == "HorizontalPodAutoscaler"}
    pods = []
    for doc in docs:
        if doc["kind"] not in ("Deployment", "StatefulSet", "Job"):
            continue
        name = doc["metadata"]["name"]
        spec, labels = pod_spec(doc)
        component = labels.get("app.kubernetes.io/component", name)
        if doc["kind"] == "Deployment":
            hpa = hpas.get(name)
            if reference["hpa"] is None:
                if hpa is not None:
                    problems.add(where, f"{name} autoscales; the reference tier does not")
                if doc["spec"].get("replicas") != reference["replicas"]:
                    problems.add(where, f"{name} runs {doc['spec'].get('replicas')} replicas, the reference "
                                        f"{reference['replicas']}")
            elif hpa is None or (hpa["minReplicas"], hpa["maxReplicas"]) != reference["hpa"]:
                problems.add(where, f"{name} autoscales {None if hpa is None else (hpa['minReplicas'], hpa['maxReplicas'])}"
                                    f", the reference tier {reference['hpa']}")
            count = hpa["maxReplicas"] if hpa else doc["spec"].get("replicas", 1)
        elif doc["kind"] == "StatefulSet":
            count = doc["spec"]["replicas"]
        else:
            count = 1
        places = eligible(spec, groups)
        if not places:
            problems.add(where, f"{doc['kind']}/{name} fits no node group (nodeSelector "
                                f"{spec.get('nodeSelector')}, tolerations {spec.get('tolerations')})")
            continue
        hard = any("requiredDuringSchedulingIgnoredDuringExecution" in (spec.get("affinity") or {}).get(a, {})
                   for a in ("podAntiAffinity",))
        cpu = sum(cpu_m(c["resources"]["requests"]["cpu"]) for c in spec["containers"])
        memory = sum(memory_mi(c["resources"]["requests"]["memory"]) for c in spec["containers"])
        pods += [(component, cpu, memory, places, hard)] * count
        if component == "hazelcast":
            if count != reference["members"]:
                problems.add(where, f"{count} shared cluster members, the reference tier {reference['members']}")
            dedicated = [p for p in places if groups[p]["taints"]]
            if reference["dedicated"] and (len(places) != 1 or not dedicated):
                problems.add(where, f"the shared cluster may run on {places}, not only on its tainted node group")
    if reference["dedicated"]:
        owner = next((p for c, _, _, ps, _ in pods if c == "hazelcast" for p in ps), None)
        intruders = sorted({c for c, _, _, ps, _ in pods if c != "hazelcast" and owner in ps})
        if intruders:
            problems.add(where, f"{intruders} may run on the shared cluster's dedicated nodes")
    untainted = [n for n, g in groups.items() if not g["taints"]]
    pods += [(name, cpu, memory, untainted, False) for name, cpu, memory in ADDONS]
    pack(where, pods, groups, problems)


def pack(where, pods, groups, problems):
    nodes = []
    for name, g in groups.items():
        vcpu, gib, max_pods = INSTANCE_TYPES[g["type"]]
        reserved_cpu = 60 + 10 + 5 * min(2, max(0, vcpu - 2)) + 2.5 * max(0, vcpu - 4)
        reserved_memory = 255 + 11 * max_pods + 100
        for i in range(g["count"]):
            nodes.append({"group": name, "cpu": vcpu * 1000 - reserved_cpu - DAEMONSETS_CPU_M,
                          "memory": gib * 1024 * VISIBLE_MEMORY_SHARE - reserved_memory - DAEMONSETS_MEMORY_MI,
                          "pods": max_pods - 4, "components": set(), "used_cpu": 0, "used_memory": 0, "count": 0})
    for component, cpu, memory, places, hard in sorted(pods, key=lambda p: (-p[2], -p[1])):
        for node in sorted((n for n in nodes if n["group"] in places), key=lambda n: n["used_memory"]):
            if (node["cpu"] - node["used_cpu"] >= cpu and node["memory"] - node["used_memory"] >= memory
                    and node["count"] < node["pods"] and not (hard and component in node["components"])):
                node["used_cpu"] += cpu
                node["used_memory"] += memory
                node["count"] += 1
                node["components"].add(component)
                break
        else:
            problems.add(where, f"at maximum scale a {component} pod ({cpu} m CPU, {memory:.0f} Mi requested) fits "
                                f"on no node of {places}")
            return
    for group in groups:
        members = [n for n in nodes if n["group"] == group]
        cpu = sum(n["used_cpu"] for n in members) / 1000
        cpu_all = sum(n["cpu"] for n in members) / 1000
        memory = sum(n["used_memory"] for n in members) / 1024
        memory_all = sum(n["memory"] for n in members) / 1024
        print(f"   {where}, {group} ({len(members)} x {groups[group]['type']}) at maximum scale: "
              f"{sum(n['count'] for n in members)} pods, CPU requests {cpu:.1f} of {cpu_all:.1f}, "
              f"memory {memory:.1f} of {memory_all:.1f} GiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rendered", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--pom", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()

    problems = Problems()
    pom = pom_facts(args.pom, args.root)
    if not DIGEST.search(pom["base"]):
        problems.add("pom.xml", f"the images' base {pom['base']!r} is not pinned by digest")
    if not pom["modules"]:
        problems.add("pom.xml", "the images profile builds no module (no jib buildTar, or no module with an "
                                "application.yml)")
    chart = yaml.safe_load(open(os.path.join(args.root, "k8s/sagaflow/Chart.yaml")))
    if str(chart["appVersion"]) != pom["version"]:
        problems.add("Chart.yaml", f"appVersion {chart['appVersion']} is not the project's version {pom['version']}")

    images = set()
    sources = main_sources(args.root)
    for path in sorted(glob.glob(os.path.join(args.rendered, "*.yaml"))):
        case = os.path.basename(path)[:-5]
        docs = load(path)
        images |= check_images(case, docs, pom, problems)
        check_pods(case, docs, problems)
        check_wiring(case, docs, "sagaflow", args.out, problems)
        if case == "everything":
            print(f"   network policies: {check_network_policies(case, docs, problems)} in the everything case")
        else:
            check_network_policies(case, docs, problems)
        if case == "everything":
            metrics = check_dashboards(sources, docs, problems)
            print(f"   dashboards query {len(metrics)} sagaflow metrics, all registered by the code")
            alerts = check_alerts(args.root, sources, docs, args.out, problems)
            print(f"   {len(alerts)} alerts, each with a severity, its text and a section in docs/alerts.md; their "
                  f"metrics registered by the code; rules written to {args.out}/alerts for promtool")
        if case.startswith("tier-"):
            tier = case[len("tier-"):]
            config, groups = eksctl_groups(os.path.join(args.root, f"k8s/eksctl/{tier}.yaml"))
            check_tier(tier, docs, config, groups, problems)
    print("   images: " + ", ".join(sorted(images)))
    if problems.items:
        for problem in problems.items:
            print(f"   {problem}")
        sys.exit(1)


if __name__ == "__main__":
    main()
