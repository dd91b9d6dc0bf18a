import { authorizationSuite } from "./authorization/suite";

authorizationSuite(2, 3);
