CREATE TABLE "model_retirements" (
	"model" text PRIMARY KEY NOT NULL,
	"deprecated_at" timestamp with time zone,
	"retires_at" timestamp with time zone,
	"replacement" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_retirements_dates_check" CHECK (("model_retirements"."retires_at" is null) = ("model_retirements"."deprecated_at" is null) and ("model_retirements"."deprecated_at" is null or "model_retirements"."deprecated_at" <= "model_retirements"."retires_at")),
	CONSTRAINT "model_retirements_replacement_check" CHECK ("model_retirements"."replacement" is null or "model_retirements"."retires_at" is not null)
);
