-- Modify "users" table
ALTER TABLE "users" ADD COLUMN "password_hash" character varying NOT NULL DEFAULT '';
