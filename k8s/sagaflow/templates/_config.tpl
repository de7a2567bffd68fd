{{/*
The Spring configuration of one deployable, as YAML; call with (list $root "order-service"). Rendered into its ConfigMap
and hashed into its pod template, so a change rolls exactly the pods it concerns.
*/}}
{{- define "sagaflow.applicationConfig" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $c := include "sagaflow.componentValues" (list $root $name) | fromYaml }}
{{- $config := dict }}
{{- $memberDns := printf "%s.%s.svc.%s" (include "sagaflow.memberServiceName" (list $root $name)) $root.Release.Namespace $root.Values.clusterDomain }}
{{- if eq $name "api-gateway" }}
{{- /* The gateway names the services account, inventory, order, payment; its replicas form their own cluster. Each
service is one Service whose endpoints are its ready pods, so the gateway's own readiness probes are off (ADR 0077). */}}
{{- $instances := dict }}
{{- range $service := keys $root.Values.services | sortAlpha }}
{{- $_ := set $instances (trimSuffix "-service" $service) (list (dict "uri" (include "sagaflow.serviceUrl" (list $root $service)))) }}
{{- end }}
{{- $config = dict
  "spring" (dict "cloud" (dict "discovery" (dict "client" (dict "simple" (dict "instances" $instances)))))
  "sagaflow" (dict "gateway" (dict
    "readiness" (dict "interval" "0")
    "hazelcast" (dict
      "port" 5701
      "port-count" 1
      "bind-interface" "${POD_IP}"
      "kubernetes-service-dns" $memberDns))) }}
{{- else }}
{{- $topic := $root.Values.sharedCluster.topic }}
{{- $config = dict
  "spring" (dict
    "datasource" (dict "url" (include "sagaflow.jdbcUrl" (list $root $c.database)))
    "flyway" (dict "lock-retry-count" 120))
  "sagaflow" (dict "hazelcast" (dict
    "service" (dict
      "join" "kubernetes"
      "port" 5701
      "port-count" 1
      "bind-interface" "${POD_IP}"
      "kubernetes" (dict
        "service-dns" $memberDns
        "service-port" 5701))
    "shared" (dict
      "mode" "client"
      "cluster-name" $root.Values.sharedCluster.clusterName
      "addresses" (list (printf "%s:5701" (include "sagaflow.sharedClusterName" $root)))
      "topic" (dict
        "prefix" $topic.prefix
        "shards" $topic.shards
        "capacity" $topic.capacity
        "ttl" (printf "%vs" $topic.ttlSeconds))))) }}
{{- if eq $name "order-service" }}
{{- $_ := set $config.sagaflow "order" (dict "audit" (dict
  "inventory-url" (include "sagaflow.serviceUrl" (list $root "inventory-service"))
  "payment-url" (include "sagaflow.serviceUrl" (list $root "payment-service")))) }}
{{- end }}
{{- end }}
{{- $_ := set $config "management" (dict
  "endpoint" (dict "health" (dict "probes" (dict "enabled" true)))
  "metrics" (dict
    "tags" (dict "application" $name)
    "distribution" (dict "percentiles-histogram" (dict "[http.server.requests]" true)))) }}
{{- $config = mustMergeOverwrite $config (deepCopy (default dict $c.config)) }}
{{- toYaml $config }}
{{- end }}
