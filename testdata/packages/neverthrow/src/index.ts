export { Result, ok, Ok, err, Err, fromThrowable, safeTry } from './result'
export {
  ResultAsync,
  okAsync,
  errAsync,
  fromAsyncThrowable,
  fromPromise,
  fromSafePromise,
} from './result-async'
