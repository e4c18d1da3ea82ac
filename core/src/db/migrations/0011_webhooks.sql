-- Up Migration
-- Signed webhooks (issue 15 item 4, docs/api.md "Webhooks (extension)"). A job may name a URL; when
-- it reaches `completed` or `failed`, whoever wrote that (worker, sweep, a later writer), this
-- trigger writes one delivery row in the same transaction (a durable outbox) and announces it on
-- `webhook_delivery_pending`. The oracle's relay moves new rows into a pg-boss queue and its
-- delivery worker posts them (oracle/src/webhooks/).
ALTER TABLE generation_jobs ADD COLUMN webhook_url text CHECK (char_length(webhook_url) <= 2048);

-- One signing secret per user (`whsec_<base64>`): a platform-wide one would let any user forge
-- deliveries to anyone else's endpoint. Kept readable: HMAC needs the secret itself to sign.
CREATE TABLE webhook_secrets (
  user_id    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret     text NOT NULL CHECK (secret ~ '^whsec_[A-Za-z0-9+/]+=*$'),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  -- The Standard Webhooks message id (`webhook-id`), constant across retries.
  id              text PRIMARY KEY DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  job_id          uuid NOT NULL REFERENCES generation_jobs (id) ON DELETE CASCADE,
  event           text NOT NULL CHECK (event IN ('generation.completed', 'generation.failed')),
  url             text NOT NULL,
  -- pending: written, not yet in the queue; queued: in pg-boss; delivered: a 2xx answer;
  -- gave_up: the retry limit was spent.
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'queued', 'delivered', 'gave_up')),
  -- The exact JSON sent, fixed at the first attempt so retries carry the same bytes.
  body            text,
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  delivered_at    timestamptz,
  UNIQUE (job_id, event)
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (created_at) WHERE state = 'pending';

CREATE FUNCTION enqueue_generation_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delivery text;
BEGIN
  INSERT INTO webhook_deliveries (job_id, event, url)
  VALUES (NEW.id, 'generation.' || NEW.status, NEW.webhook_url)
  ON CONFLICT (job_id, event) DO NOTHING
  RETURNING id INTO delivery;
  IF delivery IS NOT NULL THEN
    PERFORM pg_notify('webhook_delivery_pending', delivery);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER generation_webhook_insert AFTER INSERT ON generation_jobs
  FOR EACH ROW WHEN (NEW.webhook_url IS NOT NULL AND NEW.status IN ('completed', 'failed'))
  EXECUTE FUNCTION enqueue_generation_webhook();
CREATE TRIGGER generation_webhook_update AFTER UPDATE OF status ON generation_jobs
  FOR EACH ROW WHEN (NEW.webhook_url IS NOT NULL AND NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION enqueue_generation_webhook();

-- Down Migration
DROP TRIGGER generation_webhook_update ON generation_jobs;
DROP TRIGGER generation_webhook_insert ON generation_jobs;
DROP FUNCTION enqueue_generation_webhook();
DROP TABLE webhook_deliveries;
DROP TABLE webhook_secrets;
ALTER TABLE generation_jobs DROP COLUMN webhook_url;
