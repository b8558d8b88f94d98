-- Written by hand: a condition an admission's single statement checks as it writes (core/tasks/admission-batch.ts,
-- the first attempt at a batch). When it does not hold, the statement fails and with it everything it wrote, and
-- the batch is judged the careful way instead.
CREATE FUNCTION "admission_guard"("holds" boolean, "reason" text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	IF holds IS NOT TRUE THEN
		RAISE EXCEPTION USING ERRCODE = 'SV001', MESSAGE = 'admission precondition failed: ' || reason;
	END IF;
	RETURN true;
END
$$;
