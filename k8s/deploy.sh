#!/bin/sh
# Applies an overlay in the order Vigil needs: config, secrets, infrastructure and
# the migration Jobs first; the services only once every migration has finished,
# so no pod of a new version ever runs against an old schema.
#
#   k8s/deploy.sh dev|prod
#
# Everything in the first step carries the label vigil.dev/phase=migrate.
set -eu

overlay="${1:-}"
case "$overlay" in
  dev) namespace=vigil-dev ;;
  prod) namespace=vigil ;;
  *) echo "usage: $0 dev|prod" >&2; exit 2 ;;
esac
dir="$(cd "$(dirname "$0")" && pwd)/overlays/$overlay"
migrations='app.kubernetes.io/component=migration'

# A Job's pod template is immutable, so last release's Jobs go before this
# release's are created (their logs go with them).
kubectl delete job --namespace "$namespace" --selector "$migrations" --ignore-not-found --wait=true

kubectl apply --kustomize "$dir" --selector 'vigil.dev/phase=migrate'

if [ "$overlay" = dev ]; then
  kubectl rollout status --namespace "$namespace" statefulset/postgres --timeout=5m
fi

if ! kubectl wait --namespace "$namespace" --for=condition=complete job --selector "$migrations" --timeout=15m; then
  echo "migrations did not complete; their last log lines:" >&2
  kubectl logs --namespace "$namespace" --selector "$migrations" --all-containers --tail=50 >&2 || true
  exit 1
fi

kubectl apply --kustomize "$dir" --selector 'vigil.dev/phase!=migrate'

for deployment in $(kubectl get deployment --namespace "$namespace" --selector app.kubernetes.io/part-of=vigil --output name); do
  kubectl rollout status --namespace "$namespace" "$deployment" --timeout=10m
done
