{{/* Names and labels. */}}

{{- define "sagaflow.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sagaflow.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* <fullname>-<component>; call with (list $ "order-service"). */}}
{{- define "sagaflow.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "sagaflow.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sagaflow.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels of a component; call with (list $ "order-service"). */}}
{{- define "sagaflow.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "sagaflow.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* All labels of a component; call with (list $ "order-service"). */}}
{{- define "sagaflow.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "sagaflow.chart" $root }}
{{ include "sagaflow.selectorLabels" . }}
app.kubernetes.io/part-of: sagaflow
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

{{/* An image the project builds: <registry>/<component>:<tag>; call with (list $ "order-service"). */}}
{{- define "sagaflow.projectImage" -}}
{{- $root := index . 0 }}
{{- printf "%s/%s:%s" $root.Values.image.registry (index . 1) (default $root.Chart.AppVersion $root.Values.image.tag) }}
{{- end }}

{{/* The settings of one deployable: common, overridden by its own entry; call with (list $ "order-service"). */}}
{{- define "sagaflow.componentValues" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $own := dict }}
{{- if eq $name "api-gateway" }}
{{- $own = $root.Values.gateway }}
{{- else }}
{{- $own = index $root.Values.services $name }}
{{- end }}
{{- toYaml (mustMergeOverwrite (deepCopy $root.Values.common) (deepCopy $own)) }}
{{- end }}

{{/* The names of the deployables: the four services, then the gateway if enabled. */}}
{{- define "sagaflow.components" -}}
{{- $names := keys .Values.services | sortAlpha }}
{{- if .Values.gateway.enabled }}
{{- $names = append $names "api-gateway" }}
{{- end }}
{{- toJson $names }}
{{- end }}

{{/* The headless service whose DNS records list a service's replicas (its per-service Hazelcast cluster). */}}
{{- define "sagaflow.memberServiceName" -}}
{{- printf "%s-hz" (include "sagaflow.componentName" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sagaflow.sharedClusterName" -}}
{{- include "sagaflow.componentName" (list . "hazelcast") }}
{{- end }}

{{- define "sagaflow.sharedClusterMembersName" -}}
{{- include "sagaflow.componentName" (list . "hazelcast-members") }}
{{- end }}

{{- define "sagaflow.databaseSecretName" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else }}
{{- include "sagaflow.componentName" (list . "database") }}
{{- end }}
{{- end }}

{{- define "sagaflow.databaseHost" -}}
{{- if .Values.postgresql.enabled }}
{{- include "sagaflow.componentName" (list . "postgresql") }}
{{- else if .Values.database.host }}
{{- .Values.database.host }}
{{- else }}
{{- fail "database.host is required: set the host of your PostgreSQL server, or postgresql.enabled=true for a trial instance" }}
{{- end }}
{{- end }}

{{/* JDBC URL of one service's database; call with (list $ "order"). */}}
{{- define "sagaflow.jdbcUrl" -}}
{{- $root := index . 0 }}
{{- $db := index $root.Values.database.names (index . 1) }}
{{- $url := printf "jdbc:postgresql://%s:%v/%s" (include "sagaflow.databaseHost" $root) $root.Values.database.port $db }}
{{- if $root.Values.database.params }}
{{- $url = printf "%s?%s" $url $root.Values.database.params }}
{{- end }}
{{- $url }}
{{- end }}

{{/* Base URL of a service inside the cluster; call with (list $ "inventory-service"). */}}
{{- define "sagaflow.serviceUrl" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $port := 0 }}
{{- if eq $name "api-gateway" }}
{{- $port = $root.Values.gateway.port }}
{{- else }}
{{- $port = (index $root.Values.services $name).port }}
{{- end }}
{{- printf "http://%s:%v" (include "sagaflow.componentName" (list $root $name)) $port }}
{{- end }}

{{/* Where the load test and the helm test send their requests. */}}
{{- define "sagaflow.entryUrl" -}}
{{- if .Values.gateway.enabled }}
{{- include "sagaflow.serviceUrl" (list . "api-gateway") }}
{{- else }}
{{- fail "the gateway is disabled: set loadTest.baseUrl, or enable the gateway" }}
{{- end }}
{{- end }}

{{/* Pod anti-affinity for a component: hard (required) or soft (preferred) by node; call with (list $ name mode). */}}
{{- define "sagaflow.antiAffinity" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $mode := index . 2 }}
podAntiAffinity:
  {{- if eq $mode "hard" }}
  requiredDuringSchedulingIgnoredDuringExecution:
    - topologyKey: kubernetes.io/hostname
      labelSelector:
        matchLabels:
          {{- include "sagaflow.selectorLabels" (list $root $name) | nindent 10 }}
  {{- else }}
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "sagaflow.selectorLabels" (list $root $name) | nindent 12 }}
  {{- end }}
{{- end }}

{{/*
Spread a component's pods over zones, then nodes, without blocking scheduling; call with (list $ name perRevision):
perRevision counts only the pods of the same Deployment revision, so a rolling update spreads too.
*/}}
{{- define "sagaflow.topologySpread" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $perRevision := index . 2 }}
{{- range $key := list "topology.kubernetes.io/zone" "kubernetes.io/hostname" }}
- maxSkew: 1
  topologyKey: {{ $key }}
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "sagaflow.selectorLabels" (list $root $name) | nindent 6 }}
  {{- if $perRevision }}
  matchLabelKeys:
    - pod-template-hash
  {{- end }}
{{- end }}
{{- end }}

{{/* Security context shared by every container: non-root, no privilege escalation, read-only root. */}}
{{- define "sagaflow.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
{{- end }}

{{/* An alert's labels and the start of its annotations (its runbook_url when runbookBaseUrl is set); call with
(list $ "SagaflowDeadLetters" "warning") and follow with the alert's own annotations, indented two more. */}}
{{- define "sagaflow.alertMeta" -}}
{{- $pr := (index . 0).Values.metrics.prometheusRule -}}
labels:
  severity: {{ index . 2 }}
  {{- with $pr.alertLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
annotations:
  {{- with $pr.runbookBaseUrl }}
  runbook_url: {{ printf "%s#%s" . (lower (index $ 1)) | quote }}
  {{- end }}
{{- end }}
