#!/bin/sh
# Posts to a channel through an incoming webhook, as a CI job or a cron script would: make one in
# the server's settings ("Bots" › "Webhooks") and pass its URL.
#
#   PRACA_WEBHOOK_URL=https://…/api/webhooks/ID/TOKEN ./webhook.sh "Deploy concluído"
#
# It posts a message with an embed and waits for it (?wait=true), printing the message's ID.
set -eu
url=${PRACA_WEBHOOK_URL:?set PRACA_WEBHOOK_URL to the webhook URL}
text=${1:-Olá do webhook}
# The text goes into JSON: quotes and backslashes escaped.
json_text=$(printf '%s' "$text" | sed 's/\\/\\\\/g; s/"/\\"/g')
answer=$(curl -sS --fail-with-body -X POST "$url?wait=true" \
  -H 'content-type: application/json' \
  -d "{\"content\": \"$json_text\", \"username\": \"Script\", \"embeds\": [{\"title\": \"$(hostname)\", \"description\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\", \"color\": 2992722}]}") || {
  echo "webhook: $answer" >&2
  exit 1
}
printf '%s\n' "$answer" | sed -n 's/.*"message":{"id":"\([^"]*\)".*/posted \1/p'
